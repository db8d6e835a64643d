import type { Page } from '@playwright/test';

/** The console shell as a user sees it; no assertions here, only ways to reach things. */
export class ConsolePage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async open(section = 'live'): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/${section}`);
  }

  navLink(id: string) {
    return this.page.getByTestId(`nav-${id}`);
  }

  heading() {
    return this.page.getByRole('heading', { level: 1 });
  }

  connectionState() {
    return this.page.getByTestId('connection-state');
  }

  aboutValue(field: 'version' | 'runtime' | 'config-path' | 'data-dir' | 'uptime') {
    return this.page.getByTestId(`about-${field}`);
  }
}
