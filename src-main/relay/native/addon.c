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

bool native_packet_in(napi_env env, napi_value value, uint32_t offset, uint32_t length, size_t room, unsigned char **packet) {
  unsigned char *data = NULL;
  size_t byte_length = 0;
  bool is_buffer = false;
  if (napi_is_arraybuffer(env, value, &is_buffer) != napi_ok || !is_buffer ||
      napi_get_arraybuffer_info(env, value, (void **)&data, &byte_length) != napi_ok)
    return false;
  if (offset > byte_length || length > byte_length - offset || room > byte_length - offset - length) return false;
  *packet = data + offset;
  return true;
}

int native_srtcp_arguments(napi_env env, napi_callback_info info, bool with_index, uint32_t min_length, size_t room, napi_value *context,
                           unsigned char **packet, uint32_t *length, uint32_t *index) {
  const size_t wanted = with_index ? 5 : 4;
  size_t argc = wanted;
  napi_value argv[5];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return -1;
  if (argc < wanted) return 0;
  *context = argv[0];
  uint32_t offset = 0;
  if (napi_get_value_uint32(env, argv[2], &offset) != napi_ok || napi_get_value_uint32(env, argv[3], length) != napi_ok ||
      (with_index && napi_get_value_uint32(env, argv[4], index) != napi_ok))
    return -1;
  return *length >= min_length && native_packet_in(env, argv[1], offset, *length, room, packet) ? 1 : 0;
}

// Packets in one batch call, at most (a batch of BATCH_BYTES is far fewer).
#define MAX_BATCH_PACKETS 256

int native_batch_arguments(napi_env env, napi_callback_info info, size_t tag, napi_value *context, unsigned char **data,
                           const int32_t **spans, uint32_t *count) {
  size_t argc = 4;
  napi_value argv[4];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return -1;
  if (argc < 4) return 0;
  *context = argv[0];
  size_t byte_length;
  napi_typedarray_type spans_type;
  size_t spans_length;
  void *spans_data;
  if (napi_get_arraybuffer_info(env, argv[1], (void **)data, &byte_length) != napi_ok ||
      napi_get_typedarray_info(env, argv[2], &spans_type, &spans_length, &spans_data, NULL, NULL) != napi_ok ||
      napi_get_value_uint32(env, argv[3], count) != napi_ok)
    return -1;
  if (spans_type != napi_int32_array || *count > MAX_BATCH_PACKETS || spans_length < (size_t)*count * 4) return 0;
  const int32_t *s = spans_data;
  for (uint32_t i = 0; i < *count; i++) {
    int64_t start = s[4 * i], header = s[4 * i + 1], payload = s[4 * i + 2];
    if (start < 0 || header < 12 || payload < 0 || (uint64_t)(start + header + payload) + tag > byte_length) return 0;
  }
  *spans = s;
  return 1;
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
