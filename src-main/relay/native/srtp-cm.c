// AES_CM_128_HMAC_SHA1_80 protection of RTP packets (RFC 3711), a batch in one call: each
// viewer's packets of an event-loop turn, laid out by JavaScript in one buffer, are encrypted
// and tagged in place. The cipher and the hash are the host's own OpenSSL (Node exports it to
// addons; Electron's BoringSSL has the same functions), found by name when the addon loads, so
// nothing is linked against a particular build: where they are missing the relay protects in
// JavaScript with Node's crypto, as before.
#include "native.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#define AES_BLOCK 16
#define SHA1_BLOCK 64
#define SHA1_LENGTH 20
// Room for OpenSSL's SHA_CTX (96 bytes) and BoringSSL's, whatever their layout: the states are
// only ever copied whole and handed back to the functions that made them.
#define SHA_STATE_BYTES 256
// Counter blocks encrypted per cipher call: a 16 KiB batch of payload (about 1,040 blocks) takes
// a few calls, and each context (a viewer's track) holds 16 KiB of them, not the batch's size.
#define COUNTER_BLOCKS 512

typedef int (*sha1_init_fn)(void *state);
typedef int (*sha1_update_fn)(void *state, const void *data, size_t length);
typedef int (*sha1_final_fn)(unsigned char *digest, void *state);
typedef void *(*cipher_ctx_new_fn)(void);
typedef void (*cipher_ctx_free_fn)(void *ctx);
typedef const void *(*cipher_fn)(void);
typedef int (*encrypt_init_fn)(void *ctx, const void *cipher, void *engine, const unsigned char *key, const unsigned char *iv);
typedef int (*encrypt_update_fn)(void *ctx, unsigned char *out, int *out_length, const unsigned char *in, int in_length);
typedef int (*set_padding_fn)(void *ctx, int padding);

static struct {
  int found;
  sha1_init_fn sha1_init;
  sha1_update_fn sha1_update;
  sha1_final_fn sha1_final;
  cipher_ctx_new_fn cipher_ctx_new;
  cipher_ctx_free_fn cipher_ctx_free;
  cipher_fn aes_128_ecb;
  encrypt_init_fn encrypt_init;
  encrypt_update_fn encrypt_update;
  set_padding_fn set_padding;
} openssl;

// Found once per process, before any context is made (module init), and never changed after.
static void find_openssl(void) {
  openssl.sha1_init = (sha1_init_fn)dlsym(RTLD_DEFAULT, "SHA1_Init");
  openssl.sha1_update = (sha1_update_fn)dlsym(RTLD_DEFAULT, "SHA1_Update");
  openssl.sha1_final = (sha1_final_fn)dlsym(RTLD_DEFAULT, "SHA1_Final");
  openssl.cipher_ctx_new = (cipher_ctx_new_fn)dlsym(RTLD_DEFAULT, "EVP_CIPHER_CTX_new");
  openssl.cipher_ctx_free = (cipher_ctx_free_fn)dlsym(RTLD_DEFAULT, "EVP_CIPHER_CTX_free");
  openssl.aes_128_ecb = (cipher_fn)dlsym(RTLD_DEFAULT, "EVP_aes_128_ecb");
  openssl.encrypt_init = (encrypt_init_fn)dlsym(RTLD_DEFAULT, "EVP_EncryptInit_ex");
  openssl.encrypt_update = (encrypt_update_fn)dlsym(RTLD_DEFAULT, "EVP_EncryptUpdate");
  openssl.set_padding = (set_padding_fn)dlsym(RTLD_DEFAULT, "EVP_CIPHER_CTX_set_padding");
  openssl.found = openssl.sha1_init && openssl.sha1_update && openssl.sha1_final && openssl.cipher_ctx_new &&
                  openssl.cipher_ctx_free && openssl.aes_128_ecb && openssl.encrypt_init && openssl.encrypt_update &&
                  openssl.set_padding;
}

// One direction of one SRTP session: the AES-ECB cipher that makes key streams from counter
// blocks, the salt, and HMAC's inner and outer states after their pad blocks.
struct srtp_cm {
  void *ecb;
  unsigned char salt[14];
  _Alignas(16) unsigned char inner[SHA_STATE_BYTES];
  _Alignas(16) unsigned char outer[SHA_STATE_BYTES];
  _Alignas(16) unsigned char counters[COUNTER_BLOCKS * AES_BLOCK];
  _Alignas(16) unsigned char stream[COUNTER_BLOCKS * AES_BLOCK];
};

// Marks the externals made here, so a handle of another kind is refused rather than read as one.
static const napi_type_tag CONTEXT_TAG = {0x5a1d6c0e9b3f4e21ULL, 0x8c7b2d4e61f0a935ULL};

srtp_cm *srtp_cm_of(napi_env env, napi_value value) {
  bool tagged = false;
  void *data = NULL;
  if (napi_check_object_type_tag(env, value, &CONTEXT_TAG, &tagged) != napi_ok || !tagged ||
      napi_get_value_external(env, value, &data) != napi_ok)
    return NULL;
  return data;
}

srtp_cm *srtp_cm_from(napi_env env, napi_value value) {
  srtp_cm *cm = srtp_cm_of(env, value);
  if (!cm) napi_throw_type_error(env, "EINVAL", "expected an SRTP context (srtpCmContext)");
  return cm;
}

static void finalize_context(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  srtp_cm *cm = data;
  openssl.cipher_ctx_free(cm->ecb);
  free(cm);
}

// srtpCmContext(cipherKey: Uint8Array(16), salt: Uint8Array(14), authKey: Uint8Array(20)): an
// external freed with it, or undefined where OpenSSL's functions were not found.
static napi_value srtp_cm_context(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  NATIVE_CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  napi_value undefined;
  NATIVE_CHECK(napi_get_undefined(env, &undefined));
  if (!openssl.found || argc < 3) return undefined;
  const unsigned char *key;
  const unsigned char *salt;
  const unsigned char *auth;
  size_t key_length, salt_length, auth_length;
  if (!native_bytes(env, argv[0], &key, &key_length) || !native_bytes(env, argv[1], &salt, &salt_length) ||
      !native_bytes(env, argv[2], &auth, &auth_length))
    return NULL;
  if (key_length != 16 || salt_length != 14 || auth_length != SHA1_LENGTH) {
    napi_throw_range_error(env, "EINVAL", "AES_CM_128_HMAC_SHA1_80 takes a 16-byte key, a 14-byte salt and a 20-byte auth key");
    return NULL;
  }
  srtp_cm *cm = aligned_alloc(16, sizeof(srtp_cm));
  if (!cm) {
    napi_throw_error(env, "ENOMEM", "out of memory");
    return NULL;
  }
  memset(cm, 0, sizeof *cm);
  cm->ecb = openssl.cipher_ctx_new();
  if (!cm->ecb || openssl.encrypt_init(cm->ecb, openssl.aes_128_ecb(), NULL, key, NULL) != 1 || openssl.set_padding(cm->ecb, 0) != 1) {
    if (cm->ecb) openssl.cipher_ctx_free(cm->ecb);
    free(cm);
    napi_throw_error(env, "EIO", "cannot set up AES-128-ECB");
    return NULL;
  }
  memcpy(cm->salt, salt, sizeof cm->salt);
  unsigned char pad[SHA1_BLOCK];
  memset(pad, 0x36, sizeof pad);
  for (size_t i = 0; i < SHA1_LENGTH; i++) pad[i] ^= auth[i];
  openssl.sha1_init(cm->inner);
  openssl.sha1_update(cm->inner, pad, sizeof pad);
  memset(pad, 0x5c, sizeof pad);
  for (size_t i = 0; i < SHA1_LENGTH; i++) pad[i] ^= auth[i];
  openssl.sha1_init(cm->outer);
  openssl.sha1_update(cm->outer, pad, sizeof pad);
  napi_value external;
  if (napi_create_external(env, cm, finalize_context, NULL, &external) != napi_ok) {
    finalize_context(env, cm, NULL);
    return NULL;
  }
  NATIVE_CHECK(napi_type_tag_object(env, external, &CONTEXT_TAG));
  return external;
}

// XORs the key stream into the payload, eight bytes at a time (memcpy: the payload need not be aligned).
static void xor_into(unsigned char *body, const unsigned char *stream, size_t length) {
  size_t b = 0;
  for (; b + 8 <= length; b += 8) {
    uint64_t word, key;
    memcpy(&word, body + b, 8);
    memcpy(&key, stream + b, 8);
    word ^= key;
    memcpy(body + b, &word, 8);
  }
  for (; b < length; b++) body[b] ^= stream[b];
}

// RFC 3711 4.1.1: IV = (salt * 2^16) XOR (SSRC * 2^64) XOR (index * 2^16), index = ROC || SEQ; the
// last two bytes count the packet's blocks.
static void fill_counters(const srtp_cm *cm, unsigned char *blocks, size_t count, uint32_t ssrc, uint32_t rollover, uint16_t sequence) {
  unsigned char iv[AES_BLOCK];
  memset(iv, 0, sizeof iv);
  native_write32(iv + 4, ssrc);
  native_write32(iv + 8, rollover);
  iv[12] = (unsigned char)(sequence >> 8);
  iv[13] = (unsigned char)sequence;
  for (size_t i = 0; i < sizeof cm->salt; i++) iv[i] ^= cm->salt[i];
  for (size_t k = 0; k < count; k++) {
    unsigned char *block = blocks + k * AES_BLOCK;
    memcpy(block, iv, 14);
    block[14] = (unsigned char)(k >> 8);
    block[15] = (unsigned char)k;
  }
}

// HMAC-SHA1 with the context's auth key over `data` and then `extra` (RFC 3711 4.2: SRTP appends
// the rollover counter, SRTCP authenticates its E flag and index as part of the packet).
void srtp_cm_digest(const srtp_cm *cm, const unsigned char *data, size_t length, const unsigned char *extra, size_t extra_length,
                    unsigned char digest[20]) {
  _Alignas(16) unsigned char state[SHA_STATE_BYTES];
  memcpy(state, cm->inner, sizeof state);
  openssl.sha1_update(state, data, length);
  if (extra_length > 0) openssl.sha1_update(state, extra, extra_length);
  openssl.sha1_final(digest, state);
  memcpy(state, cm->outer, sizeof state);
  openssl.sha1_update(state, digest, SHA1_LENGTH);
  openssl.sha1_final(digest, state);
}

// The 80-bit tag over the header, the encrypted payload and the rollover counter (RFC 3711 4.2),
// written after the payload.
static void write_tag(const srtp_cm *cm, unsigned char *packet, size_t length, uint32_t rollover) {
  unsigned char roc[4];
  unsigned char digest[SHA1_LENGTH];
  native_write32(roc, rollover);
  srtp_cm_digest(cm, packet, length, roc, sizeof roc, digest);
  memcpy(packet + length, digest, SRTP_CM_TAG);
}

// XORs the key stream of (SSRC, rollover, sequence) into `body` (encrypts or decrypts in place),
// for bodies of at most the context's counter room (an RTCP packet's). 0, or a negative errno.
int srtp_cm_crypt(srtp_cm *cm, uint32_t ssrc, uint32_t rollover, uint16_t sequence, unsigned char *body, size_t length) {
  const size_t blocks = (length + AES_BLOCK - 1) / AES_BLOCK;
  if (blocks > COUNTER_BLOCKS) return -EMSGSIZE;
  if (blocks == 0) return 0;
  fill_counters(cm, cm->counters, blocks, ssrc, rollover, sequence);
  int produced = 0;
  if (openssl.encrypt_update(cm->ecb, cm->stream, &produced, cm->counters, (int)(blocks * AES_BLOCK)) != 1) return -EIO;
  xor_into(body, cm->stream, length);
  return 0;
}

// Packets of `data`, each [start, headerLength, payloadLength, rollover] in `spans` (already
// checked to lie in the buffer), encrypted in place and tagged: 0, or a negative errno.
int srtp_cm_protect_spans(srtp_cm *cm, unsigned char *data, const int32_t *spans, uint32_t count) {
  // Packets whose counter blocks fit go to the cipher together; a packet larger than the whole
  // room (none of RTP's: 64 KiB) is refused above by the caller's batch limit.
  uint32_t from = 0;
  while (from < count) {
    size_t blocks = 0;
    uint32_t to = from;
    while (to < count) {
      size_t need = ((size_t)spans[4 * to + 2] + AES_BLOCK - 1) / AES_BLOCK;
      if (blocks + need > COUNTER_BLOCKS) break;
      unsigned char *packet = data + spans[4 * to];
      fill_counters(cm, cm->counters + blocks * AES_BLOCK, need, native_read32(packet + 8), (uint32_t)spans[4 * to + 3],
                    (uint16_t)((packet[2] << 8) | packet[3]));
      blocks += need;
      to++;
    }
    if (to == from) return -EINVAL;
    int produced = 0;
    if (blocks > 0 && openssl.encrypt_update(cm->ecb, cm->stream, &produced, cm->counters, (int)(blocks * AES_BLOCK)) != 1)
      return -EIO;
    size_t at = 0;
    for (uint32_t i = from; i < to; i++) {
      unsigned char *packet = data + spans[4 * i];
      size_t header = (size_t)spans[4 * i + 1];
      size_t payload = (size_t)spans[4 * i + 2];
      unsigned char *body = packet + header;
      const unsigned char *stream = cm->stream + at;
      xor_into(body, stream, payload);
      write_tag(cm, packet, header + payload, (uint32_t)spans[4 * i + 3]);
      at += (payload + AES_BLOCK - 1) / AES_BLOCK * AES_BLOCK;
    }
    from = to;
  }
  return 0;
}

// srtpCmProtect(context, buffer: ArrayBuffer, spans: Int32Array [start, headerLength,
// payloadLength, rollover]..., count): each packet (its RTP header and payload in clear at
// `start`) encrypted in place, its tag written after it. Returns 0, or -EINVAL for a span out of
// the buffer (nothing written).
static napi_value srtp_cm_protect(napi_env env, napi_callback_info info) {
  napi_value handle;
  unsigned char *data;
  const int32_t *spans;
  uint32_t count;
  const int read = native_batch_arguments(env, info, SRTP_CM_TAG, &handle, &data, &spans, &count);
  if (read <= 0) return read < 0 ? NULL : native_number(env, -EINVAL);
  srtp_cm *cm = srtp_cm_from(env, handle);
  if (!cm) return NULL;
  return native_number(env, srtp_cm_protect_spans(cm, data, spans, count));
}

void register_srtp_cm(napi_env env, napi_value exports) {
  find_openssl();
  napi_value available;
  napi_property_descriptor properties[] = {
      {"srtpCmContext", NULL, srtp_cm_context, NULL, NULL, NULL, napi_default, NULL},
      {"srtpCmProtect", NULL, srtp_cm_protect, NULL, NULL, NULL, napi_default, NULL},
      {"srtpCm", NULL, NULL, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  if (napi_get_boolean(env, openssl.found != 0, &available) != napi_ok) return;
  properties[2].value = available;
  napi_define_properties(env, exports, sizeof properties / sizeof properties[0], properties);
}
