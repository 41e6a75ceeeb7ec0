import type { Locator, Page } from 'playwright-core';

export class LoginPage {
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly error: Locator;
  readonly hint: Locator;
  /** A single sign-on failure the server sent the browser back with. */
  readonly ssoError: Locator;

  constructor(readonly page: Page) {
    this.email = page.getByTestId('login-email');
    this.password = page.getByTestId('login-password');
    this.submit = page.getByTestId('login-submit');
    this.error = page.getByTestId('login-error');
    this.hint = page.getByTestId('login-hint');
    this.ssoError = page.getByTestId('sso-error');
  }

  /** The single sign-on button of a configured OIDC provider. */
  ssoButton(id: string): Locator {
    return this.page.getByTestId(`sso-${id}`);
  }

  async goto(baseUrl: string): Promise<void> {
    await this.page.goto(`${baseUrl}/login`);
    await this.submit.waitFor();
  }

  async fill(email: string, password: string): Promise<void> {
    await this.email.fill(email);
    await this.password.fill(password);
  }

  async signIn(email: string, password: string): Promise<void> {
    await this.fill(email, password);
    await this.submit.click();
  }
}
