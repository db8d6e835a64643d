#!/usr/bin/python3
"""An IP camera as many are built: GStreamer's RTSP server (gst-rtsp-server), H.264 video and
G.711 audio, optionally ONVIF with a backchannel (the camera's speaker). Prints `PORT <n>` once
it listens, then serves until killed. Used by the relay's interop tests."""
import argparse
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, default=0)
parser.add_argument("--size", default="320x240")
parser.add_argument("--onvif", action="store_true")
args = parser.parse_args()
width, height = (int(n) for n in args.size.split("x"))

Gst.init(None)
media = (
    f"( videotestsrc is-live=true pattern=ball ! video/x-raw,width={width},height={height},framerate=15/1 "
    "! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=15 ! rtph264pay name=pay0 pt=96 config-interval=-1 "
    "audiotestsrc is-live=true wave=sine ! audio/x-raw,rate=8000,channels=1 ! mulawenc ! rtppcmupay name=pay1 pt=0 )"
)

if args.onvif:
    server = GstRtspServer.RTSPOnvifServer.new()
    factory = GstRtspServer.RTSPOnvifMediaFactory.new()
    factory.set_backchannel_launch(
        '( capsfilter caps="application/x-rtp, media=audio, payload=0, clock-rate=8000, encoding-name=PCMU" '
        "name=depay_backchannel ! rtppcmudepay ! fakesink async=false )"
    )
    factory.set_media_gtype(GstRtspServer.RTSPOnvifMedia)
else:
    server = GstRtspServer.RTSPServer.new()
    factory = GstRtspServer.RTSPMediaFactory.new()
factory.set_launch(media)
factory.set_shared(not args.onvif)
server.set_address("127.0.0.1")
server.set_service(str(args.port))
server.get_mount_points().add_factory("/stream", factory)
if server.attach(None) == 0:
    sys.exit(f"cannot listen on port {args.port}")
print(f"PORT {server.get_bound_port()}", flush=True)
GLib.MainLoop().run()
