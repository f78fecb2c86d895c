import type { DeskSettingsBridge } from '../../shared/bridge.js';
import { h, replaceChildren } from '../dom.js';
import type { Toaster } from '../toaster.js';

/** Electron only: where the worker is and the token to reach it. The token is write-only here. */
export class SettingsView {
  readonly root: HTMLElement;
  private readonly urlInput = h('input', {
    attrs: { id: 'worker-url', type: 'url', required: true, placeholder: 'http://127.0.0.1:8787' },
  });
  private readonly tokenInput = h('input', {
    attrs: { id: 'worker-token', type: 'password', autocomplete: 'off', placeholder: 'Paste the intake token' },
  });
  private readonly loginInput = h('input', { attrs: { id: 'open-at-login', type: 'checkbox' } });
  private readonly notice = h('div', { class: 'settings-notice', attrs: { role: 'status' } });
  private readonly state = h('div', { class: 'settings-state' });
  private readonly error = h('div', { class: 'dp-error', attrs: { role: 'alert' } });

  constructor(
    private readonly settings: DeskSettingsBridge,
    private readonly toast: Toaster,
  ) {
    this.root = h(
      'section',
      { class: 'view view-settings', attrs: { 'aria-label': 'Settings' } },
      h('div', { class: 'view-head' }, h('h2', null, 'Settings')),
      h(
        'form',
        { class: 'settings-form', on: { submit: (e) => (e.preventDefault(), void this.save()) } },
        h(
          'label',
          null,
          'Worker address',
          this.urlInput,
          h('span', { class: 'muted' }, 'The intake of the carrier-screen worker, e.g. http://127.0.0.1:8787'),
        ),
        h(
          'label',
          null,
          'Intake token',
          this.tokenInput,
          h(
            'span',
            { class: 'muted' },
            'A desk token from whoever runs the worker (carrier-screen token create --role desk --name "Your name"). Leave empty to keep the saved one (same worker address only).',
          ),
        ),
        h('label', { class: 'settings-check' }, this.loginInput, ' Start Carrier Screen when I log in'),
        this.notice,
        this.state,
        this.error,
        h('div', { class: 'dp-buttons' }, h('button', { class: 'btn btn-approve', attrs: { type: 'submit' } }, 'Save and connect')),
      ),
    );
    void this.load();
  }

  async load(): Promise<void> {
    try {
      const v = await this.settings.get();
      this.urlInput.value = v.workerUrl;
      this.loginInput.checked = v.openAtLogin;
      this.notice.textContent = v.notice ?? '';
      this.showState(v.hasToken, v.canEncrypt);
    } catch (err) {
      this.error.textContent = (err as Error).message;
    }
  }

  private showState(hasToken: boolean, canEncrypt: boolean): void {
    replaceChildren(
      this.state,
      hasToken ? 'A token is saved.' : 'No token saved yet.',
      canEncrypt
        ? ' It is stored encrypted by the system keychain.'
        : h(
            'strong',
            null,
            ' This system offers no keychain (on Linux: no secret service such as GNOME Keyring or KWallet): the token is kept for this session only, never written to disk.',
          ),
    );
  }

  private async save(): Promise<void> {
    this.error.textContent = '';
    try {
      const v = await this.settings.save({
        workerUrl: this.urlInput.value,
        token: this.tokenInput.value,
        openAtLogin: this.loginInput.checked,
      });
      this.tokenInput.value = '';
      this.notice.textContent = v.notice ?? '';
      this.showState(v.hasToken, v.canEncrypt);
      this.toast.show('Saved. Connecting to the worker…', 'ok');
    } catch (err) {
      this.error.textContent = (err as Error).message;
    }
  }
}
