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
// The bytes of a Buffer or Uint8Array; false, with a TypeError thrown, for anything else.
bool native_bytes(napi_env env, napi_value value, const unsigned char **bytes, size_t *length);

void register_udp_batch(napi_env env, napi_value exports);
void register_srtp_cm(napi_env env, napi_value exports);
void register_stream_write(napi_env env, napi_value exports);

#endif
