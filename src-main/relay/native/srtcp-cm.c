// SRTCP with AES_CM_128_HMAC_SHA1_80 (RFC 3711 3.4) for one packet at a time, in place: the
// relay's sender reports to each viewer (one a second per track) and what each viewer sends back
// (receiver reports, NACKs, picture loss). In JavaScript each packet made a cipher and an HMAC
// object of Node's crypto, which cost more than the packet's bytes: here the context made for the
// session's RTCP keys (srtpCmContext) does both with the state it keeps. The replay window stays
// with the caller.
#include "native.h"

#include <string.h>

#define SHA1_LENGTH 20

// srtcpCmProtect(context, buffer: ArrayBuffer, offset, length, index): the compound RTCP packet at
// `offset` (in clear) encrypted after its first 8 bytes, E and the 31-bit `index` written after it
// and the 80-bit tag after those. Returns the datagram's length (length + 14), or -EINVAL (too
// short, or no room after it: nothing written).
static napi_value srtcp_cm_protect(napi_env env, napi_callback_info info) {
  napi_value handle;
  unsigned char *packet = NULL;
  uint32_t length = 0, index = 0;
  const int read = native_srtcp_arguments(env, info, true, RTCP_FIXED_HEADER, SRTCP_INDEX + SRTP_CM_TAG, &handle, &packet, &length, &index);
  if (read <= 0) return read < 0 ? NULL : native_number(env, -EINVAL);
  srtp_cm *cm = srtp_cm_from(env, handle);
  if (!cm) return NULL;
  index &= 0x7fffffff;
  // RFC 3711 4.1.1 with the SRTCP index in the place of the packet index.
  const int crypted = srtp_cm_crypt(cm, native_read32(packet + 4), index >> 16, (uint16_t)index, packet + RTCP_FIXED_HEADER, length - RTCP_FIXED_HEADER);
  if (crypted != 0) return native_number(env, crypted);
  const uint32_t word = 0x80000000u | index;
  unsigned char *trailer = packet + length;
  trailer[0] = (unsigned char)(word >> 24);
  trailer[1] = (unsigned char)(word >> 16);
  trailer[2] = (unsigned char)(word >> 8);
  trailer[3] = (unsigned char)word;
  unsigned char digest[SHA1_LENGTH];
  srtp_cm_digest(cm, packet, length + SRTCP_INDEX, NULL, 0, digest);
  memcpy(trailer + SRTCP_INDEX, digest, SRTP_CM_TAG);
  return native_number(env, length + SRTCP_INDEX + SRTP_CM_TAG);
}

// srtcpCmUnprotect(context, buffer: ArrayBuffer, offset, length): the SRTCP datagram at `offset`
// checked (its tag, in constant time) and, when its E flag is set, decrypted in place. Returns
// its 31-bit index (the packet in clear is its first length - 14 bytes), -EBADMSG when it is not
// authentic (nothing changed), or -EINVAL when it is too short or not inside the buffer.
static napi_value srtcp_cm_unprotect(napi_env env, napi_callback_info info) {
  napi_value handle;
  unsigned char *packet = NULL;
  uint32_t length = 0;
  const int read =
      native_srtcp_arguments(env, info, false, RTCP_FIXED_HEADER + SRTCP_INDEX + SRTP_CM_TAG, 0, &handle, &packet, &length, NULL);
  if (read <= 0) return read < 0 ? NULL : native_number(env, -EINVAL);
  srtp_cm *cm = srtp_cm_from(env, handle);
  if (!cm) return NULL;
  const size_t tag_at = length - SRTP_CM_TAG;
  unsigned char digest[SHA1_LENGTH];
  srtp_cm_digest(cm, packet, tag_at, NULL, 0, digest);
  unsigned char difference = 0;
  for (size_t i = 0; i < SRTP_CM_TAG; i++) difference |= (unsigned char)(digest[i] ^ packet[tag_at + i]);
  if (difference != 0) return native_number(env, -EBADMSG);
  const size_t index_at = tag_at - SRTCP_INDEX;
  const uint32_t word = native_read32(packet + index_at);
  const uint32_t index = word & 0x7fffffff;
  if (word >> 31) {
    const int crypted = srtp_cm_crypt(cm, native_read32(packet + 4), index >> 16, (uint16_t)index, packet + RTCP_FIXED_HEADER, index_at - RTCP_FIXED_HEADER);
    if (crypted != 0) return native_number(env, crypted);
  }
  return native_number(env, index);
}

void register_srtcp_cm(napi_env env, napi_value exports) {
  napi_property_descriptor properties[] = {
      {"srtcpCmProtect", NULL, srtcp_cm_protect, NULL, NULL, NULL, napi_default, NULL},
      {"srtcpCmUnprotect", NULL, srtcp_cm_unprotect, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof properties / sizeof properties[0], properties);
}
