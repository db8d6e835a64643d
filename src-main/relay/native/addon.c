// The relay's native helpers, one addon: batched UDP sends (udp-batch.c), AES-CM SRTP
// protection in batches (srtp-cm.c), AES-GCM's (srtp-gcm.c), a track's turn to all its viewers
// at once (srtp-fanout.c) and SRTCP both ways (srtcp-cm.c) for WebRTC viewers, and direct writes to TCP viewers
// (stream-write.c). Loaded by native-addon.ts.
#include "native.h"

napi_value native_number(napi_env env, double value) {
  napi_value result;
  if (napi_create_double(env, value, &result) != napi_ok) return NULL;
  return result;
}

bool native_bytes(napi_env env, napi_value value, const unsigned char **bytes, size_t *length) {
  bool is_typed_array = false;
  napi_typedarray_type type;
  void *data;
  if (napi_is_typedarray(env, value, &is_typed_array) != napi_ok || !is_typed_array ||
      napi_get_typedarray_info(env, value, &type, length, &data, NULL, NULL) != napi_ok || type != napi_uint8_array) {
    napi_throw_type_error(env, "EINVAL", "expected bytes (a Buffer or Uint8Array)");
    return false;
  }
  *bytes = data;
  return true;
}

static napi_value init(napi_env env, napi_value exports) {
  register_udp_batch(env, exports);
  register_srtp_cm(env, exports);
  register_stream_write(env, exports);
  register_srtp_fanout(env, exports);
  register_srtcp_cm(env, exports);
  register_srtp_gcm(env, exports);
  return exports;
}

NAPI_MODULE(relay_native, init)
