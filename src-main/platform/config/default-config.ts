/**
 * The commented config written on first run. Keys follow go2rtc where they overlap, so a
 * go2rtc.yaml can be pasted in; later sections (storage, directory) add their own keys.
 */
export const DEFAULT_CONFIG_TEXT = `# Relay Console configuration.
# The api, rtsp, webrtc, streams and log sections read like go2rtc's config (webrtc is not served yet).
# Any value may use \${ENV} or \${ENV:default} to read an environment variable.

# Where the console keeps its state (databases, emulator data, caches).
# Relative paths resolve against the folder of this file. Default: the OS app-data folder.
# data_dir: ./relay-console-data

api:
  # The console and the relay HTTP API. Listening on 127.0.0.1 keeps them on this machine;
  # to open them to the network use e.g. 0.0.0.0:1984 and set a username and password.
  listen: 127.0.0.1:1984
  # username: admin
  # password: \${RELAY_API_PASSWORD}

rtsp:
  # RTSP server: play any stream at rtsp://127.0.0.1:8554/<name>, publish into one with
  # ANNOUNCE/RECORD. An empty listen turns it off.
  listen: 127.0.0.1:8554
  # username: viewer
  # password: \${RELAY_RTSP_PASSWORD}

streams:
  # A live test pattern, so a fresh install has something to watch. ffmpeg starts when the
  # first viewer arrives and stops after the last one leaves.
  demo: ffmpeg:virtual?video=testsrc2&size=720#video=h264
  # A camera: credentials in the URL are never shown in the console or the logs.
  # front_door: rtsp://admin:\${FRONT_DOOR_PASSWORD}@192.168.1.20:554/stream1
  # Transcode another stream for browsers: video to H264, audio to Opus.
  # front_door_web: ffmpeg:front_door#video=h264#audio=opus
  # A publish target (an empty value): ffmpeg -re -i clip.mp4 -c copy -f rtsp rtsp://127.0.0.1:8554/pushed
  # pushed:

log:
  # trace, debug, info, warn or error
  level: info

storage:
  emulator:
    # A local Kodo-compatible object storage service that the console (and the official SDKs)
    # use when no cloud account is configured. A demo account and bucket are created on first
    # run; their keys are in <data_dir>/storage/demo-account.json. enabled: false turns it off.
    listen: 127.0.0.1:1985

directory:
  emulator:
    # A local Microsoft Graph-compatible directory and calendar service (access packages and
    # policies, administrative units, events, calendarView delta) that the console uses when no
    # tenant is configured. Demo credentials are in <data_dir>/directory/demo-account.json.
    listen: 127.0.0.1:1986
  # A real tenant instead (the user signs in in the browser; tokens are cached encrypted):
  # graph:
  #   tenant: contoso.onmicrosoft.com
  #   client_id: 00000000-0000-0000-0000-000000000000
`;
