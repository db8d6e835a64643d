// What the relay's native helpers share: Node-API only (no V8 or libuv headers), so one build
// loads in Node and in Electron of any version.
#ifndef RELAY_NATIVE_H
#define RELAY_NATIVE_H

#define NAPI_VERSION 8
#include <node_api.h>

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// Returns NULL (a pending JavaScript exception) from the calling function when a Node-API call fails.
#define NATIVE_CHECK(call)                                                                                             \
  do {                                                                                                                 \
    if ((call) != napi_ok) return NULL;                                                                                \
  } while (0)

napi_value native_number(napi_env env, double value);

// SRTP's tags (AES_CM_128_HMAC_SHA1_80: 80 bits; AES-GCM, RFC 7714: 128), SRTCP's E || index
// trailer and the RTCP header and SSRC every SRTCP packet keeps in clear.
#define SRTP_CM_TAG 10
#define SRTP_GCM_TAG 16
#define SRTCP_INDEX 4
#define RTCP_FIXED_HEADER 8

// Big-endian fields of RTP, RTCP and SRTP's IVs.
static inline uint32_t native_read32(const unsigned char *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline void native_write16(unsigned char *p, uint32_t value) {
  p[0] = (unsigned char)(value >> 8);
  p[1] = (unsigned char)value;
}
static inline void native_write32(unsigned char *p, uint32_t value) {
  p[0] = (unsigned char)(value >> 24);
  p[1] = (unsigned char)(value >> 16);
  p[2] = (unsigned char)(value >> 8);
  p[3] = (unsigned char)value;
}

// The bytes of an ArrayBuffer from `offset`, `length` of them and `room` more after them, in
// `*packet`; false when they are not all inside it (or `value` is no ArrayBuffer).
bool native_packet_in(napi_env env, napi_value value, uint32_t offset, uint32_t length, size_t room, unsigned char **packet);
// The arguments of an SRTCP call (context, buffer: ArrayBuffer, offset, length, and with
// `with_index` an index): the packet at `offset` at least `min_length` bytes long, with `room`
// bytes after it, in `*packet`: 1, 0 when it is not (the call answers -EINVAL), or -1 with an
// exception pending.
int native_srtcp_arguments(napi_env env, napi_callback_info info, bool with_index, uint32_t min_length, size_t room, napi_value *context,
                           unsigned char **packet, uint32_t *length, uint32_t *index);
// The arguments of a batch protection call (context, buffer: ArrayBuffer, spans: Int32Array
// [start, headerLength, payloadLength, rollover]..., count), every span checked to lie in the
// buffer with `tag` bytes after it: 1, 0 when they do not (the call answers -EINVAL), or -1 with
// an exception pending.
int native_batch_arguments(napi_env env, napi_callback_info info, size_t tag, napi_value *context, unsigned char **data,
                           const int32_t **spans, uint32_t *count);
// The bytes of a Buffer or Uint8Array; false, with a TypeError thrown, for anything else.
bool native_bytes(napi_env env, napi_value value, const unsigned char **bytes, size_t *length);

// One direction of an AES_CM_128_HMAC_SHA1_80 session (srtp-cm.c).
typedef struct srtp_cm srtp_cm;
// The context behind a handle from srtpCmContext; NULL, with a TypeError thrown, for anything else.
srtp_cm *srtp_cm_from(napi_env env, napi_value value);
// The same, NULL without an exception for anything else.
srtp_cm *srtp_cm_of(napi_env env, napi_value value);
// One direction of an AEAD_AES_128_GCM or AEAD_AES_256_GCM session (srtp-gcm.c), and the one
// behind a handle from srtpGcmContext (NULL, without an exception, for anything else).
typedef struct srtp_gcm srtp_gcm;
srtp_gcm *srtp_gcm_of(napi_env env, napi_value value);
// As srtp_cm_protect_spans, with AES-GCM (a 16-byte tag after each packet).
int srtp_gcm_protect_spans(srtp_gcm *gcm, unsigned char *data, const int32_t *spans, uint32_t count);
// Packets of `data`, each [start, headerLength, payloadLength, rollover] in `spans` (checked by
// the caller to lie in the buffer), encrypted in place and tagged: 0, or a negative errno.
int srtp_cm_protect_spans(srtp_cm *cm, unsigned char *data, const int32_t *spans, uint32_t count);
// HMAC-SHA1 with the context's auth key over `data`, then `extra` (may be empty).
void srtp_cm_digest(const srtp_cm *cm, const unsigned char *data, size_t length, const unsigned char *extra, size_t extra_length,
                    unsigned char digest[20]);
// The key stream of (SSRC, rollover, sequence) XORed into `body` in place (at most 8 KiB): 0, or a negative errno.
int srtp_cm_crypt(srtp_cm *cm, uint32_t ssrc, uint32_t rollover, uint16_t sequence, unsigned char *body, size_t length);
// How many datagrams from `first` one sendmmsg message takes: with `segment` a run of
// equal-sized ones and at most one shorter one after it (udp-batch.c), else one.
uint32_t udp_message_length(const int32_t *spans, uint32_t first, uint32_t count, bool segment);

void register_udp_batch(napi_env env, napi_value exports);
void register_srtp_cm(napi_env env, napi_value exports);
void register_stream_write(napi_env env, napi_value exports);
void register_srtp_fanout(napi_env env, napi_value exports);
void register_srtcp_cm(napi_env env, napi_value exports);
void register_srtp_gcm(napi_env env, napi_value exports);

#endif
