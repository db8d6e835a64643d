// Many UDP datagrams to one address in one system call (Linux): Node's dgram makes one `sendmsg`
// per datagram, each behind a JavaScript call, a request object and a callback, and a WebRTC
// viewer gets about 200 datagrams a second per camera. Here a viewer's batch of SRTP datagrams
// (a picture, mostly) leaves in one `sendmmsg`, and a run of equal-sized ones (a picture's
// fragmentation units) as one segmentation-offload message (UDP_SEGMENT): the kernel routes and
// passes it down once and cuts it into the same datagrams at the last moment (in the network
// card, or for loopback at the receiving socket), about a third of its cost per datagram.
#include "native.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif

// Datagrams in one call (a batch of SRTP packets is far fewer), messages in one sendmmsg, and
// datagrams in one segmentation-offload message (the kernel takes up to 64, in under 64 KiB).
#define MAX_DATAGRAMS 256
#define MAX_MESSAGES 64
#define MAX_SEGMENTS 64
#define MAX_SEGMENTED_BYTES 65000

// Throws an Error whose `code` is the errno's name, as Node's own socket errors have it.
static napi_value throw_errno(napi_env env, const char *message, int error) {
  const char *code = error == EADDRINUSE      ? "EADDRINUSE"
                     : error == EACCES        ? "EACCES"
                     : error == EADDRNOTAVAIL ? "EADDRNOTAVAIL"
                     : error == EMFILE        ? "EMFILE"
                     : error == ENFILE        ? "ENFILE"
                     : error == EINVAL        ? "EINVAL"
                                              : "EIO";
  napi_throw_error(env, code, message);
  return NULL;
}

// bindUdp4(address: number (IPv4, host order), port: number): fd
// A UDP socket bound as Node would bind it (no SO_REUSEADDR), non-blocking and closed on exec;
// Node's dgram adopts it with bind({ fd }) and owns it from then on.
static napi_value bind_udp4(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  NATIVE_CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  uint32_t address = 0;
  uint32_t port = 0;
  NATIVE_CHECK(napi_get_value_uint32(env, argv[0], &address));
  NATIVE_CHECK(napi_get_value_uint32(env, argv[1], &port));
  if (port > 65535) return throw_errno(env, "port out of range", EINVAL);
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return throw_errno(env, "cannot open a UDP socket", errno);
  struct sockaddr_in local;
  memset(&local, 0, sizeof local);
  local.sin_family = AF_INET;
  local.sin_port = htons((uint16_t)port);
  local.sin_addr.s_addr = htonl(address);
  if (bind(fd, (struct sockaddr *)&local, sizeof local) != 0) {
    int error = errno;
    close(fd);
    return throw_errno(env, "cannot bind the UDP port", error);
  }
  return native_number(env, fd);
}

// How many datagrams from `first` go in one message: with `segment`, a run of equal-sized ones
// and at most one shorter one after it (the kernel cuts every `size` bytes, the last piece may be
// shorter); else one. Shared with srtp-fanout.c.
uint32_t udp_message_length(const int32_t *spans, uint32_t first, uint32_t count, bool segment) {
  if (!segment) return 1;
  const int32_t size = spans[2 * first + 1];
  uint32_t n = 1;
  int64_t bytes = size;
  while (first + n < count && n < MAX_SEGMENTS && spans[2 * (first + n) + 1] <= size && bytes + spans[2 * (first + n) + 1] <= MAX_SEGMENTED_BYTES) {
    const int32_t next = spans[2 * (first + n) + 1];
    bytes += next;
    n++;
    if (next < size) break;
  }
  return n;
}

// sendBatch(fd, buffer: ArrayBuffer, spans: Int32Array [offset, length]..., count, address (IPv4,
// host order), port, segment: boolean): the count of datagrams the kernel took (all of them, or
// fewer when its send buffer is full), or -errno when it took none (EIO with `segment`: this
// route cannot offload segmentation, send again without).
static napi_value send_batch(napi_env env, napi_callback_info info) {
  size_t argc = 7;
  napi_value argv[7];
  NATIVE_CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 7) return native_number(env, -EINVAL);
  int32_t fd = -1;
  uint32_t count = 0;
  uint32_t address = 0;
  uint32_t port = 0;
  bool segment = false;
  NATIVE_CHECK(napi_get_value_int32(env, argv[0], &fd));
  unsigned char *data = NULL;
  size_t byte_length = 0;
  NATIVE_CHECK(napi_get_arraybuffer_info(env, argv[1], (void **)&data, &byte_length));
  napi_typedarray_type spans_type;
  size_t spans_length = 0;
  void *spans_data = NULL;
  NATIVE_CHECK(napi_get_typedarray_info(env, argv[2], &spans_type, &spans_length, &spans_data, NULL, NULL));
  NATIVE_CHECK(napi_get_value_uint32(env, argv[3], &count));
  NATIVE_CHECK(napi_get_value_uint32(env, argv[4], &address));
  NATIVE_CHECK(napi_get_value_uint32(env, argv[5], &port));
  NATIVE_CHECK(napi_get_value_bool(env, argv[6], &segment));
  if (spans_type != napi_int32_array || count > MAX_DATAGRAMS || spans_length < (size_t)count * 2 || port > 65535)
    return native_number(env, -EINVAL);
  const int32_t *spans = spans_data;
  // Every span must lie inside the buffer: a bad offset is the caller's bug, never a read past the end.
  for (uint32_t i = 0; i < count; i++) {
    int64_t offset = spans[2 * i];
    int64_t length = spans[2 * i + 1];
    if (offset < 0 || length <= 0 || length > 65507 || (uint64_t)(offset + length) > byte_length) return native_number(env, -EINVAL);
  }

  struct sockaddr_in to;
  memset(&to, 0, sizeof to);
  to.sin_family = AF_INET;
  to.sin_port = htons((uint16_t)port);
  to.sin_addr.s_addr = htonl(address);
  struct iovec iov[MAX_DATAGRAMS];
  struct mmsghdr messages[MAX_MESSAGES];
  uint32_t datagrams[MAX_MESSAGES];
  union {
    char bytes[CMSG_SPACE(sizeof(uint16_t))];
    struct cmsghdr align;
  } control[MAX_MESSAGES];

  uint32_t sent = 0;
  while (sent < count) {
    uint32_t m = 0;
    for (uint32_t i = sent; m < MAX_MESSAGES && i < count; m++) {
      const uint32_t n = udp_message_length(spans, i, count, segment);
      for (uint32_t k = 0; k < n; k++) {
        iov[i + k].iov_base = data + spans[2 * (i + k)];
        iov[i + k].iov_len = (size_t)spans[2 * (i + k) + 1];
      }
      struct msghdr *header = &messages[m].msg_hdr;
      memset(&messages[m], 0, sizeof messages[m]);
      header->msg_name = &to;
      header->msg_namelen = sizeof to;
      header->msg_iov = &iov[i];
      header->msg_iovlen = n;
      if (n > 1) {
        header->msg_control = control[m].bytes;
        header->msg_controllen = sizeof control[m].bytes;
        struct cmsghdr *cmsg = CMSG_FIRSTHDR(header);
        cmsg->cmsg_level = SOL_UDP;
        cmsg->cmsg_type = UDP_SEGMENT;
        cmsg->cmsg_len = CMSG_LEN(sizeof(uint16_t));
        const uint16_t size = (uint16_t)spans[2 * i + 1];
        memcpy(CMSG_DATA(cmsg), &size, sizeof size);
      }
      datagrams[m] = n;
      i += n;
    }
    int done;
    do {
      done = sendmmsg(fd, messages, m, 0);
    } while (done < 0 && errno == EINTR);
    if (done < 0) {
      if (sent > 0) break;
      return native_number(env, -errno);
    }
    for (int k = 0; k < done; k++) sent += datagrams[k];
    if ((uint32_t)done < m) break;
  }
  return native_number(env, sent);
}

void register_udp_batch(napi_env env, napi_value exports) {
  napi_property_descriptor properties[] = {
      {"bindUdp4", NULL, bind_udp4, NULL, NULL, NULL, napi_default, NULL},
      {"sendBatch", NULL, send_batch, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof properties / sizeof properties[0], properties);
}
