import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { XLSX_MEDIA_TYPE } from '@siteboard/shared';
import { insertProject } from '../../../../server/src/test/work-factories';
import { apiServerForFile } from '../../test/api-server';
import { renderScreen } from '../../test/render';
import { DownloadListButtons } from './download-list-buttons';

const api = apiServerForFile(async (server) => {
  const { company, manager } = await server.createCrew();
  await insertProject(server.database.db, company.id, { managerId: manager.id, name: 'Harbour wall' });
  return { manager };
});

/** What the browser was handed to save: jsdom has no object URLs and no downloads, so both are caught here. */
const saved: { blob: Blob; name: string }[] = [];
let handed: Blob | undefined;
const { createObjectURL, revokeObjectURL } = URL;

beforeAll(() => {
  URL.createObjectURL = (blob: Blob) => {
    handed = blob as Blob;
    return 'blob:saved';
  };
  URL.revokeObjectURL = () => {};
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ blob: handed!, name: this.download });
  });
});
afterAll(() => {
  Object.assign(URL, { createObjectURL, revokeObjectURL });
  vi.restoreAllMocks();
});

describe('the list download buttons', () => {
  it('save the list as an Excel workbook beside the CSV, each as the server named it', async () => {
    await api.server.signIn(api.manager);
    renderScreen(<DownloadListButtons path="/api/projects/" query={{ status: 'ongoing' }} subject="Ongoing Projects" />);

    await userEvent.click(screen.getByRole('button', { name: 'Download Excel: Ongoing Projects' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toMatch(/^siteboard-projects-ongoing-\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(saved[0]!.blob.type).toBe(XLSX_MEDIA_TYPE);
    // A workbook is a zip archive.
    expect(new TextDecoder().decode(new Uint8Array(await saved[0]!.blob.arrayBuffer()).slice(0, 2))).toBe('PK');

    await userEvent.click(screen.getByRole('button', { name: 'Download CSV: Ongoing Projects' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1]!.name).toMatch(/^siteboard-projects-ongoing-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(await saved[1]!.blob.text()).toContain('Harbour wall');
  });

  it('say why a workbook could not be made', async () => {
    await api.server.signIn(api.manager);
    api.server.answer('GET', /^\/api\/projects\/\?.*format=xlsx/, { status: 400, json: { detail: 'format must be json, csv or xlsx.' } });
    renderScreen(<DownloadListButtons path="/api/projects/" subject="Projects" />);
    await userEvent.click(screen.getByRole('button', { name: 'Download Excel: Projects' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The Excel download failed');
  });
});
