// The storage emulator's native helper (loaded by storage-native.ts): letting the kernel drop a
// file range from the page cache once it is on the disk. Node has no posix_fadvise.
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <stdint.h>

/**
 * dropCachedRange(fd, offset, length): POSIX_FADV_DONTNEED over the range (length 0: to the end
 * of the file). Only clean pages go, so it is called after fdatasync. Returns 0 or a negative errno.
 */
static napi_value drop_cached_range(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  int32_t fd;
  int64_t offset;
  int64_t length;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3 ||
      napi_get_value_int32(env, argv[0], &fd) != napi_ok || napi_get_value_int64(env, argv[1], &offset) != napi_ok ||
      napi_get_value_int64(env, argv[2], &length) != napi_ok || offset < 0 || length < 0) {
    napi_throw_type_error(env, "EINVAL", "expected a file descriptor, an offset and a length");
    return NULL;
  }
  int failed = posix_fadvise(fd, (off_t)offset, (off_t)length, POSIX_FADV_DONTNEED);
  napi_value result;
  if (napi_create_int32(env, -failed, &result) != napi_ok) return NULL;
  return result;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value fn;
  if (napi_create_function(env, "dropCachedRange", NAPI_AUTO_LENGTH, drop_cached_range, NULL, &fn) != napi_ok ||
      napi_set_named_property(env, exports, "dropCachedRange", fn) != napi_ok)
    return NULL;
  return exports;
}

NAPI_MODULE(storage_native, init)
