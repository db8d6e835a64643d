import type { Locator, Page } from '@playwright/test';

/** The live view as a user sees it: tiles by camera name, their actions and captions. */
export class LivePage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/live`);
  }

  tile(stream: string): Locator {
    return this.page.getByRole('article', { name: `Camera ${stream}` });
  }

  /** The picture of a tile: the video element, or the image in MJPEG mode. */
  picture(stream: string): Locator {
    return this.tile(stream).locator('video:visible, img:visible');
  }

  mode(stream: string): Locator {
    return this.tile(stream).getByLabel(/^mode /);
  }

  state(stream: string): Locator {
    return this.tile(stream).getByLabel(/^state /);
  }

  status(stream: string): Locator {
    return this.tile(stream).getByRole('status');
  }

  fallbackReason(stream: string): Locator {
    return this.tile(stream).getByLabel(/^fell back because/);
  }

  async forceMode(stream: string, label: 'WebRTC' | 'MSE' | 'HLS' | 'MJPEG'): Promise<void> {
    await this.tile(stream).getByRole('button', { name: `Playback mode of ${stream}` }).click();
    await this.page.getByRole('menuitem', { name: `${label} only` }).click();
  }

  action(stream: string, name: 'Snapshot' | 'Fullscreen' | 'Pop out' | 'Unmute' | 'Mute' | 'Move'): Locator {
    return this.tile(stream).getByRole(name === 'Snapshot' ? 'link' : 'button', { name: `${name} ${name === 'Snapshot' ? 'of ' : ''}${stream}` });
  }

  layout(label: string): Locator {
    return this.page.getByRole('radiogroup', { name: 'Layout' }).getByText(label, { exact: true });
  }

  layoutOption(label: string): Locator {
    return this.page.getByRole('radio', { name: label, exact: true });
  }

  tileNames(): Promise<string[]> {
    return this.page.getByRole('list', { name: 'Cameras' }).getByRole('article').evaluateAll((tiles) => tiles.map((t) => (t.getAttribute('aria-label') ?? '').replace(/^Camera /, '')));
  }
}
