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

  async forceMode(stream: string, label: 'WebRTC' | 'MSE' | 'HLS' | 'MJPEG' | 'Automatic'): Promise<void> {
    await this.tile(stream)
      .getByRole('button', { name: `Menu of ${stream}` })
      .click();
    await this.page.getByRole('menuitem', { name: label === 'Automatic' ? /^Automatic/ : `${label} only` }).click();
  }

  action(stream: string, name: 'Snapshot' | 'Fullscreen' | 'Pop out' | 'Unmute' | 'Mute' | 'Move'): Locator {
    return this.tile(stream).getByRole(name === 'Snapshot' ? 'link' : 'button', {
      name: `${name} ${name === 'Snapshot' ? 'of ' : ''}${stream}`,
    });
  }

  layout(label: string): Locator {
    return this.page.getByRole('radiogroup', { name: 'Layout' }).getByText(label, { exact: true });
  }

  layoutOption(label: string): Locator {
    return this.page.getByRole('radio', { name: label, exact: true });
  }

  tileNames(): Promise<string[]> {
    return this.page
      .getByRole('list', { name: 'Cameras' })
      .getByRole('article')
      .evaluateAll((tiles) => tiles.map((t) => (t.getAttribute('aria-label') ?? '').replace(/^Camera /, '')));
  }
}

/** A camera on its own (`#/camera/<stream>`, the pop-out window) with the tile's actions. */
export class CameraWindowPage {
  constructor(
    readonly page: Page,
    readonly stream: string,
  ) {}

  window(): Locator {
    return this.page.getByRole('main', { name: `Camera ${this.stream}` });
  }

  picture(): Locator {
    return this.window().locator('video:visible, img:visible');
  }

  mode(): Locator {
    return this.window().getByLabel(/^mode /);
  }

  state(): Locator {
    return this.window().getByLabel(/^state /);
  }

  menuButton(): Locator {
    return this.window().getByRole('button', { name: `Menu of ${this.stream}` });
  }

  action(name: 'Snapshot' | 'Fullscreen' | 'Unmute' | 'Mute'): Locator {
    return this.window().getByRole(name === 'Snapshot' ? 'link' : 'button', {
      name: `${name} ${name === 'Snapshot' ? 'of ' : ''}${this.stream}`,
    });
  }
}
