import type { Page } from '@playwright/test';

/** The Recordings section as a user sees it: roles and labels only. */
export class RecordingsPage {
  constructor(readonly page: Page) {}

  camera(stream: string) {
    return this.page.getByRole('navigation', { name: 'Recorded cameras' }).getByRole('link', { name: new RegExp(`^${stream}\\b`) });
  }

  status() {
    return this.page.getByRole('status', { name: /^Recording of / });
  }

  timeline() {
    return this.page.getByRole('slider', { name: /^Timeline/ });
  }

  spans() {
    return this.page.getByTestId('recorded-span');
  }

  zoom(label: 'Day' | '6 h' | '1 h' | '10 min') {
    return this.page.getByRole('radiogroup', { name: 'Zoom' }).getByText(label, { exact: true });
  }

  speed(label: '1×' | '2×' | '4×') {
    return this.page.getByRole('radiogroup', { name: 'Speed' }).getByText(label, { exact: true });
  }

  video() {
    return this.page.getByRole('region', { name: 'Playback' }).locator('video');
  }

  exportField(label: 'From' | 'To' | 'Bucket' | 'Object key') {
    return this.page.getByRole('region', { name: 'Export a range' }).getByLabel(label, { exact: true });
  }

  downloadLink() {
    return this.page.getByRole('link', { name: 'Download MP4' });
  }

  /** The video element's playback as the page sees it. */
  playback() {
    return this.video().evaluate((video: HTMLVideoElement) => ({
      time: video.currentTime,
      size: `${video.videoWidth}x${video.videoHeight}`,
      rate: video.playbackRate,
      error: video.error?.message ?? null,
    }));
  }
}
