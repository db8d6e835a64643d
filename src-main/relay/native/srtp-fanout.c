// One event-loop turn of a stream track's packets to every WebRTC viewer of it on the shared UDP
// port, in one call: for each viewer, each packet gets that viewer's RTP header (its payload type,
// SSRC and next sequence number), is encrypted and tagged with that viewer's keys (AES-CM or
// AES-GCM), and all the viewers' datagrams leave in one `sendmmsg` (runs of equal-sized ones as segmentation-offload
// messages, as udp-batch.c sends them). JavaScript copies the turn's payloads once into `input`,
// instead of laying out, protecting and sending them once per viewer with a call, an array and a
// buffer view per datagram each time.
//
// The datagrams are built in the fan-out's own scratch memory, which is free again when the
// call returns: the kernel copies a UDP datagram's bytes before sendmmsg returns.
#include "native.h"

#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif

// int32 fields per viewer row: IPv4 address (host order), port, SSRC, payload type, its next
// sequence number, its rollover counter, packets of the turn it skips (it joined after them), and
// one unused (rows stay eight wide).
#define ROW 8
// int32 fields per packet: offset and length of its payload in `input`, RTP timestamp, marker.
#define PACKET 4
#define HEADER 12
#define MAX_VIEWERS 4096
#define MAX_PACKETS 256
// Messages and datagrams per sendmmsg (the kernel takes at most 1024 of each).
#define MAX_MESSAGES 512
#define MAX_IOV 1024
#define FIRST_SCRATCH (256 * 1024)
#define MAX_SCRATCH (8 * 1024 * 1024)
#define MAX_DATAGRAM 65507
// The call's answer when a run could not be sent as one segmentation-offload message (EIO: the
// route's device cannot checksum it); its datagrams went one by one, and later calls should not ask.
#define SEGMENT_REFUSED 1

typedef struct {
  unsigned char *scratch;
  size_t capacity;
  size_t used;
  uint32_t message_count;
  uint32_t iov_count;
  struct mmsghdr messages[MAX_MESSAGES];
  struct sockaddr_in addresses[MAX_MESSAGES];
  union {
    char bytes[CMSG_SPACE(sizeof(uint16_t))];
    struct cmsghdr align;
  } control[MAX_MESSAGES];
  uint32_t message_viewer[MAX_MESSAGES];
  uint32_t message_datagrams[MAX_MESSAGES];
  struct iovec iov[MAX_IOV];
  int32_t protect_spans[MAX_PACKETS * 4];
  int32_t send_spans[MAX_PACKETS * 2];
  int32_t taken[MAX_VIEWERS];
  int32_t failed[MAX_VIEWERS];
} fanout;

static const napi_type_tag FANOUT_TAG = {0x3e9f2a7c51d04b86ULL, 0xa41c6e07f28d9b53ULL};

static void finalize_fanout(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  fanout *f = data;
  free(f->scratch);
  free(f);
}

// srtpFanoutContext(): the scratch memory and message tables one shared port's fan-outs use.
static napi_value srtp_fanout_context(napi_env env, napi_callback_info info) {
  (void)info;
  fanout *f = calloc(1, sizeof *f);
  if (f) f->scratch = malloc(FIRST_SCRATCH);
  if (!f || !f->scratch) {
    if (f) free(f);
    napi_throw_error(env, "ENOMEM", "out of memory");
    return NULL;
  }
  f->capacity = FIRST_SCRATCH;
  napi_value external;
  if (napi_create_external(env, f, finalize_fanout, NULL, &external) != napi_ok) {
    finalize_fanout(env, f, NULL);
    return NULL;
  }
  NATIVE_CHECK(napi_type_tag_object(env, external, &FANOUT_TAG));
  return external;
}

// A viewer's keys: AES-CM (a 10-byte tag) or AES-GCM (16).
typedef struct {
  srtp_cm *cm;
  srtp_gcm *gcm;
} viewer_keys;

// A datagram's room in the scratch memory: header, payload and tag, rounded up to 32 bits.
static size_t slot_length(int32_t payload, size_t tag) { return ((size_t)HEADER + (size_t)payload + tag + 3) & ~(size_t)3; }

// Sends the messages built so far and makes their room free again. Returns SEGMENT_REFUSED when
// a segmentation-offload message was refused and its datagrams went one by one.
static int send_pending(fanout *f, int fd) {
  int answer = 0;
  uint32_t at = 0;
  while (at < f->message_count) {
    int done;
    do {
      done = sendmmsg(fd, f->messages + at, f->message_count - at, 0);
    } while (done < 0 && errno == EINTR);
    if (done > 0) {
      for (int k = 0; k < done; k++) f->taken[f->message_viewer[at + k]] += (int32_t)f->message_datagrams[at + k];
      at += (uint32_t)done;
      continue;
    }
    // The message at `at` failed; sendmmsg tried none after it.
    const int error = done < 0 ? errno : EIO;
    const uint32_t viewer = f->message_viewer[at];
    if (error == EAGAIN || error == EWOULDBLOCK || error == ENOBUFS) {
      // The socket's buffer is full: what is left is dropped (RTP's receivers NACK what they miss).
      for (uint32_t k = at; k < f->message_count; k++)
        if (f->failed[f->message_viewer[k]] == 0) f->failed[f->message_viewer[k]] = error;
      break;
    }
    const struct msghdr *header = &f->messages[at].msg_hdr;
    if (error == EIO && header->msg_iovlen > 1) {
      answer = SEGMENT_REFUSED;
      for (size_t k = 0; k < header->msg_iovlen; k++) {
        ssize_t one;
        do {
          one = sendto(fd, header->msg_iov[k].iov_base, header->msg_iov[k].iov_len, 0, header->msg_name, header->msg_namelen);
        } while (one < 0 && errno == EINTR);
        if (one >= 0) f->taken[viewer]++;
        else if (f->failed[viewer] == 0) f->failed[viewer] = errno;
      }
    } else if (f->failed[viewer] == 0) {
      f->failed[viewer] = error;
    }
    at++;
  }
  f->message_count = 0;
  f->iov_count = 0;
  f->used = 0;
  return answer;
}

// Lays out, protects and queues one viewer's datagrams (packets `skip` to `count`) in the scratch
// memory, sending what is queued first when there is no room. 0, or a negative errno for this viewer.
static int add_viewer(fanout *f, int fd, uint32_t viewer, viewer_keys keys, const int32_t *row, const unsigned char *input,
                      const int32_t *packets, uint32_t count, bool segment, int *answer) {
  const uint32_t skip = (uint32_t)row[6];
  const uint32_t n = count - skip;
  const size_t tag = keys.cm ? SRTP_CM_TAG : SRTP_GCM_TAG;
  size_t need = 0;
  for (uint32_t p = skip; p < count; p++) need += slot_length(packets[PACKET * p + 1], tag);
  if (f->used + need > f->capacity || f->message_count + n > MAX_MESSAGES || f->iov_count + n > MAX_IOV)
    *answer |= send_pending(f, fd);
  if (need > f->capacity) {
    if (need > MAX_SCRATCH) return -EMSGSIZE;
    unsigned char *larger = realloc(f->scratch, need);
    if (!larger) return -ENOMEM;
    f->scratch = larger;
    f->capacity = need;
  }

  const uint32_t address = (uint32_t)row[0];
  const uint32_t port = (uint32_t)row[1];
  const uint32_t ssrc = (uint32_t)row[2];
  const uint32_t payload_type = (uint32_t)row[3] & 0x7f;
  const uint32_t sequence = (uint32_t)row[4] & 0xffff;
  const uint32_t rollover = (uint32_t)row[5];
  size_t at = f->used;
  for (uint32_t k = 0; k < n; k++) {
    const int32_t *packet = packets + PACKET * (skip + k);
    const int32_t length = packet[1];
    unsigned char *slot = f->scratch + at;
    const uint32_t index = sequence + k;
    slot[0] = 0x80;
    slot[1] = (unsigned char)((packet[3] ? 0x80 : 0) | payload_type);
    native_write16(slot + 2, index & 0xffff);
    native_write32(slot + 4, (uint32_t)packet[2]);
    native_write32(slot + 8, ssrc);
    memcpy(slot + HEADER, input + packet[0], (size_t)length);
    f->protect_spans[4 * k] = (int32_t)at;
    f->protect_spans[4 * k + 1] = HEADER;
    f->protect_spans[4 * k + 2] = length;
    // The sequence number wraps within the turn: the packets after it count one more rollover.
    f->protect_spans[4 * k + 3] = (int32_t)(rollover + (index >> 16));
    f->send_spans[2 * k] = (int32_t)at;
    f->send_spans[2 * k + 1] = HEADER + length + (int32_t)tag;
    at += slot_length(length, tag);
  }
  const int protected = keys.cm ? srtp_cm_protect_spans(keys.cm, f->scratch, f->protect_spans, n)
                                : srtp_gcm_protect_spans(keys.gcm, f->scratch, f->protect_spans, n);
  if (protected != 0) return protected;

  uint32_t i = 0;
  while (i < n) {
    const uint32_t c = udp_message_length(f->send_spans, i, n, segment);
    const uint32_t m = f->message_count++;
    struct sockaddr_in *to = &f->addresses[m];
    memset(to, 0, sizeof *to);
    to->sin_family = AF_INET;
    to->sin_port = htons((uint16_t)port);
    to->sin_addr.s_addr = htonl(address);
    struct iovec *iov = &f->iov[f->iov_count];
    for (uint32_t k = 0; k < c; k++) {
      iov[k].iov_base = f->scratch + f->send_spans[2 * (i + k)];
      iov[k].iov_len = (size_t)f->send_spans[2 * (i + k) + 1];
    }
    f->iov_count += c;
    struct msghdr *header = &f->messages[m].msg_hdr;
    memset(&f->messages[m], 0, sizeof f->messages[m]);
    header->msg_name = to;
    header->msg_namelen = sizeof *to;
    header->msg_iov = iov;
    header->msg_iovlen = c;
    if (c > 1) {
      header->msg_control = f->control[m].bytes;
      header->msg_controllen = sizeof f->control[m].bytes;
      struct cmsghdr *cmsg = CMSG_FIRSTHDR(header);
      cmsg->cmsg_level = SOL_UDP;
      cmsg->cmsg_type = UDP_SEGMENT;
      cmsg->cmsg_len = CMSG_LEN(sizeof(uint16_t));
      const uint16_t size = (uint16_t)f->send_spans[2 * i + 1];
      memcpy(CMSG_DATA(cmsg), &size, sizeof size);
    }
    f->message_viewer[m] = viewer;
    f->message_datagrams[m] = c;
    i += c;
  }
  f->used = at;
  return 0;
}

// srtpFanout(fanout, fd, contexts: SRTP contexts, rows: Int32Array (ROW per viewer), viewers,
// input: ArrayBuffer, packets: Int32Array (PACKET per packet), count, segment: boolean, results:
// Int32Array): each viewer's result (datagrams the kernel took, or a negative errno when it took
// none of them) in `results`. Returns 0, SEGMENT_REFUSED, or -EINVAL for arguments out of bounds
// (nothing sent).
static napi_value srtp_fanout(napi_env env, napi_callback_info info) {
  size_t argc = 10;
  napi_value argv[10];
  NATIVE_CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 10) return native_number(env, -EINVAL);
  bool tagged = false;
  fanout *f = NULL;
  NATIVE_CHECK(napi_check_object_type_tag(env, argv[0], &FANOUT_TAG, &tagged));
  if (!tagged) {
    napi_throw_type_error(env, "EINVAL", "expected a fan-out (srtpFanoutContext)");
    return NULL;
  }
  NATIVE_CHECK(napi_get_value_external(env, argv[0], (void **)&f));
  int32_t fd = -1;
  uint32_t viewers = 0, count = 0;
  bool segment = false;
  NATIVE_CHECK(napi_get_value_int32(env, argv[1], &fd));
  napi_typedarray_type rows_type, packets_type, results_type;
  size_t rows_length = 0, packets_length = 0, results_length = 0, input_length = 0;
  void *rows_data = NULL, *packets_data = NULL, *results_data = NULL;
  unsigned char *input = NULL;
  NATIVE_CHECK(napi_get_typedarray_info(env, argv[3], &rows_type, &rows_length, &rows_data, NULL, NULL));
  NATIVE_CHECK(napi_get_value_uint32(env, argv[4], &viewers));
  NATIVE_CHECK(napi_get_arraybuffer_info(env, argv[5], (void **)&input, &input_length));
  NATIVE_CHECK(napi_get_typedarray_info(env, argv[6], &packets_type, &packets_length, &packets_data, NULL, NULL));
  NATIVE_CHECK(napi_get_value_uint32(env, argv[7], &count));
  NATIVE_CHECK(napi_get_value_bool(env, argv[8], &segment));
  NATIVE_CHECK(napi_get_typedarray_info(env, argv[9], &results_type, &results_length, &results_data, NULL, NULL));
  uint32_t contexts_length = 0;
  NATIVE_CHECK(napi_get_array_length(env, argv[2], &contexts_length));
  if (rows_type != napi_int32_array || packets_type != napi_int32_array || results_type != napi_int32_array || viewers > MAX_VIEWERS ||
      count > MAX_PACKETS || rows_length < (size_t)viewers * ROW || packets_length < (size_t)count * PACKET ||
      results_length < viewers || contexts_length < viewers)
    return native_number(env, -EINVAL);
  const int32_t *rows = rows_data;
  const int32_t *packets = packets_data;
  int32_t *results = results_data;
  // Every payload must lie in `input` and every datagram fit UDP: a bad span is the caller's bug,
  // never a read past the end.
  for (uint32_t p = 0; p < count; p++) {
    const int64_t offset = packets[PACKET * p], length = packets[PACKET * p + 1];
    if (offset < 0 || length < 0 || (uint64_t)(offset + length) > input_length || HEADER + length + SRTP_GCM_TAG > MAX_DATAGRAM)
      return native_number(env, -EINVAL);
  }
  for (uint32_t v = 0; v < viewers; v++) {
    const int32_t *row = rows + ROW * v;
    if ((uint32_t)row[1] > 65535 || row[6] < 0 || (uint32_t)row[6] > count) return native_number(env, -EINVAL);
  }

  int answer = 0;
  f->used = 0;
  f->message_count = 0;
  f->iov_count = 0;
  for (uint32_t v = 0; v < viewers; v++) {
    f->taken[v] = 0;
    f->failed[v] = 0;
  }
  for (uint32_t v = 0; v < viewers; v++) {
    if ((uint32_t)rows[ROW * v + 6] == count) continue;
    napi_value handle;
    NATIVE_CHECK(napi_get_element(env, argv[2], v, &handle));
    viewer_keys keys = {srtp_cm_of(env, handle), NULL};
    if (!keys.cm) keys.gcm = srtp_gcm_of(env, handle);
    if (!keys.cm && !keys.gcm) {
      napi_throw_type_error(env, "EINVAL", "expected SRTP contexts (srtpCmContext or srtpGcmContext)");
      return NULL;
    }
    const int error = add_viewer(f, fd, v, keys, rows + ROW * v, input, packets, count, segment, &answer);
    if (error != 0) f->failed[v] = -error;
  }
  answer |= send_pending(f, fd);
  for (uint32_t v = 0; v < viewers; v++) results[v] = f->taken[v] == 0 && f->failed[v] != 0 ? -f->failed[v] : f->taken[v];
  return native_number(env, answer);
}

void register_srtp_fanout(napi_env env, napi_value exports) {
  napi_property_descriptor properties[] = {
      {"srtpFanoutContext", NULL, srtp_fanout_context, NULL, NULL, NULL, napi_default, NULL},
      {"srtpFanout", NULL, srtp_fanout, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof properties / sizeof properties[0], properties);
}
