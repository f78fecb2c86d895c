import { describe, expect, it } from 'vitest';
import { applicationMenuTemplate } from '../../electron/main/app-menu.js';

describe('application menu', () => {
  it('none on Windows and Linux; macOS keeps Edit (Cmd+V pastes the token into Settings)', () => {
    expect(applicationMenuTemplate('win32')).toBeNull();
    expect(applicationMenuTemplate('linux')).toBeNull();
    expect(applicationMenuTemplate('darwin')?.map((m) => m.role)).toEqual(['appMenu', 'editMenu', 'windowMenu']);
  });
});
