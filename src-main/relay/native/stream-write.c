// One write of bytes to a connected TCP socket that Node owns, straight into the kernel (Linux).
// An RTSP viewer gets one write per picture, the same joined bytes as every other viewer of the
// camera; through Node's stream each of those writes is a request object, a callback, stream
// bookkeeping and a deferred completion, which at a hundred viewers cost more of the relay's time
// than the system calls. The caller writes here only while Node holds nothing for the socket
// (nothing queued, not corked), so the bytes stay in order, and hands whatever the kernel did not
// take to Node's own write, which then queues and drains as always.
#include "native.h"

#include <sys/socket.h>

// writeStream(fd: number, buffer: ArrayBuffer, offset: number, length: number): the number of
// bytes the kernel took (0 when its buffer is full), or a negative errno (the connection failed:
// the caller's socket finds out the usual way). Never blocks, never raises SIGPIPE.
static napi_value write_stream(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  NATIVE_CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 4) return native_number(env, -EINVAL);
  int32_t fd;
  uint32_t offset, length;
  unsigned char *data;
  size_t byte_length;
  NATIVE_CHECK(napi_get_value_int32(env, argv[0], &fd));
  NATIVE_CHECK(napi_get_arraybuffer_info(env, argv[1], (void **)&data, &byte_length));
  NATIVE_CHECK(napi_get_value_uint32(env, argv[2], &offset));
  NATIVE_CHECK(napi_get_value_uint32(env, argv[3], &length));
  if (fd < 0 || (uint64_t)offset + length > byte_length) return native_number(env, -EINVAL);
  ssize_t sent;
  do sent = send(fd, data + offset, length, MSG_DONTWAIT | MSG_NOSIGNAL);
  while (sent < 0 && errno == EINTR);
  if (sent >= 0) return native_number(env, (double)sent);
  return native_number(env, errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno);
}

void register_stream_write(napi_env env, napi_value exports) {
  napi_property_descriptor properties[] = {
      {"writeStream", NULL, write_stream, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof properties / sizeof properties[0], properties);
}
