#!/usr/bin/python3
"""The peer of bench/relay-fanout: GStreamer's RTSP server (gst-rtsp-server, C) relaying one
camera to any number of viewers, as people set it up for that job: a shared media that pulls
the camera once (rtspsrc over TCP, no jitter buffer delay) and serves every viewer from it.
Prints `PORT <n>` once it listens, then serves until killed."""
import argparse
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--camera", required=True, help="rtsp:// address of the camera")
parser.add_argument("--port", type=int, default=0)
args = parser.parse_args()

Gst.init(None)
server = GstRtspServer.RTSPServer.new()
factory = GstRtspServer.RTSPMediaFactory.new()
factory.set_launch(
    f"( rtspsrc location={args.camera} protocols=tcp latency=0 ! rtph264depay ! rtph264pay name=pay0 pt=96 config-interval=-1 )"
)
factory.set_shared(True)
server.set_address("127.0.0.1")
server.set_service(str(args.port))
server.get_mount_points().add_factory("/cam", factory)
if server.attach(None) == 0:
    sys.exit(f"cannot listen on port {args.port}")
print(f"PORT {server.get_bound_port()}", flush=True)
GLib.MainLoop().run()
