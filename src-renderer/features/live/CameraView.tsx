export function CameraView({ stream }: { stream: string }) {
  return <main aria-label={stream} />;
}
