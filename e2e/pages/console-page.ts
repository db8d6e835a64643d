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

  /** The sidebar's quick theme switch: the option to click, and its radio to read. */
  themeOption(choice: 'System' | 'Light' | 'Dark') {
    return this.page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('radiogroup', { name: 'Theme' })
      .getByText(choice, { exact: true });
  }

  themeRadio(choice: 'System' | 'Light' | 'Dark') {
    return this.page.getByRole('navigation', { name: 'Sections' }).getByRole('radio', { name: choice, exact: true });
  }

  /** The Appearance panel in Settings. */
  settingsThemeRadio(choice: 'System' | 'Light' | 'Dark') {
    return this.page.getByRole('region', { name: 'Appearance' }).getByRole('radio', { name: choice, exact: true });
  }

  shortcutsButton() {
    return this.page.getByRole('button', { name: 'Keyboard shortcuts' });
  }

  shortcutsDialog() {
    return this.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  }

  aboutValue(field: 'version' | 'runtime' | 'config-path' | 'data-dir' | 'uptime') {
    return this.page.getByTestId(`about-${field}`);
  }
}
