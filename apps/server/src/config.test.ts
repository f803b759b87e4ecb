import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, listenOn, loadConfig } from './config';

describe('loadConfig', () => {
  it('fills every default when the environment sets nothing', () => {
    const config = loadConfig({ INIT_CWD: '/srv/siteboard' });

    expect(config).toEqual({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      dataDir: '/srv/siteboard/data',
      ALLOW_SIGNUP: true,
      PUBLIC_COMPANY_LIST: false,
      TRUST_PROXY: false,
      MAIL_FROM: 'SiteBoard <noreply@localhost>',
      METRICS_HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DB_POOL_SIZE: 10,
      APPROVAL_DELAY_HOURS: 48,
      SWEEP_INTERVAL_SECONDS: 300,
      REMINDER_LOCAL_HOUR: 7,
      DAILY_LOG_REMINDER_LOCAL_HOUR: 18,
      SHEET_RENDER_MEMORY_MB: 64,
    });
  });

  it('takes SMTP only with the address its links point to, and DKIM whole or not at all', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.com:587' })).toThrow('PUBLIC_URL: must be set when SMTP_URL is');
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow('SMTP_URL: must start with smtp:// or smtps://');
    expect(() => loadConfig({ DKIM_DOMAIN: 'example.com' })).toThrow('set all three, or none');
    expect(loadConfig({ SMTP_URL: 'smtps://user:secret@mail.example.com', PUBLIC_URL: 'https://siteboard.example.com', MAIL_FROM: 'Site <site@example.com>' })).toMatchObject({
      SMTP_URL: 'smtps://user:secret@mail.example.com',
      MAIL_FROM: 'Site <site@example.com>',
    });
  });

  it('treats an empty variable as unset', () => {
    const config = loadConfig({ PORT: '', ALLOW_SIGNUP: '', DATABASE_URL: '' });

    expect(config).toMatchObject({ PORT: 3000, ALLOW_SIGNUP: true });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('reads the values it is given', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgresql://app@db.internal/siteboard',
      JWT_SECRET: 'x'.repeat(32),
      ALLOW_SIGNUP: '0',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      SWEEP_INTERVAL_SECONDS: '60',
      REMINDER_LOCAL_HOUR: '6',
      DAILY_LOG_REMINDER_LOCAL_HOUR: '17',
      METRICS_PORT: '9464',
      METRICS_HOST: '0.0.0.0',
    });

    expect(config).toMatchObject({
      PORT: 8080,
      DATABASE_URL: 'postgresql://app@db.internal/siteboard',
      JWT_SECRET: 'x'.repeat(32),
      ALLOW_SIGNUP: false,
      TRUST_PROXY: 1,
      LOG_LEVEL: 'warn',
      SWEEP_INTERVAL_SECONDS: 60,
      REMINDER_LOCAL_HOUR: 6,
      DAILY_LOG_REMINDER_LOCAL_HOUR: 17,
      METRICS_PORT: 9464,
      METRICS_HOST: '0.0.0.0',
    });
  });

  it('reads TRUST_PROXY as the one proxy in front (true), a hop count, or the proxies\' addresses', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.5' }).TRUST_PROXY).toBe('10.0.0.0/8, 192.168.1.5');
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow('TRUST_PROXY: must be true, false, a hop count or a comma list of proxy addresses');
  });

  it('reads PUBLIC_URL without its trailing slash, with or without a path, and refuses anything else', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://siteboard.example.com/' }).PUBLIC_URL).toBe('https://siteboard.example.com');
    expect(loadConfig({ PUBLIC_URL: 'http://10.0.0.5:8080/siteboard' }).PUBLIC_URL).toBe('http://10.0.0.5:8080/siteboard');
    for (const wrong of ['siteboard.example.com', 'ftp://example.com', 'https://example.com/?x=1', 'https://exa mple.com']) {
      expect(() => loadConfig({ PUBLIC_URL: wrong })).toThrow('PUBLIC_URL: must be an http:// or https:// address without a query');
    }
  });

  it('resolves DATA_DIR against the directory the command was typed in (INIT_CWD), else the working directory', () => {
    expect(loadConfig({ DATA_DIR: 'store/db', INIT_CWD: '/home/site' }).dataDir).toBe('/home/site/store/db');
    expect(loadConfig({ DATA_DIR: '/var/lib/siteboard', INIT_CWD: '/home/site' }).dataDir).toBe('/var/lib/siteboard');
    expect(loadConfig({ DATA_DIR: 'store' }).dataDir).toBe(path.resolve(process.cwd(), 'store'));
  });

  it.each([
    ['PORT', 'abc', 'must be a number'],
    ['PORT', '70000', 'must be at most 65535'],
    ['ALLOW_SIGNUP', 'maybe', 'must be true or false'],
    ['LOG_LEVEL', 'loud', 'must be one of'],
    ['SWEEP_INTERVAL_SECONDS', 'often', 'must be a number'],
    ['SWEEP_INTERVAL_SECONDS', '2', 'must be at least 10'],
    ['SWEEP_INTERVAL_SECONDS', '90000', 'must be at most 86400'],
    ['SWEEP_INTERVAL_SECONDS', '1.5', 'must be a whole number'],
    ['REMINDER_LOCAL_HOUR', 'dawn', 'must be a number'],
    ['REMINDER_LOCAL_HOUR', '24', 'must be at most 23'],
    ['REMINDER_LOCAL_HOUR', '-1', 'must be at least 0'],
    ['REMINDER_LOCAL_HOUR', '7.5', 'must be a whole number'],
    ['DAILY_LOG_REMINDER_LOCAL_HOUR', '24', 'must be at most 23'],
    ['DAILY_LOG_REMINDER_LOCAL_HOUR', 'dusk', 'must be a number'],
    ['METRICS_PORT', 'prometheus', 'must be a number'],
    ['SHEET_RENDER_MEMORY_MB', '4', 'must be at least 8'],
    ['METRICS_PORT', '0', 'must be at least 1'],
  ])('names %s=%s in the error', (name, value, reason) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(`${name}: ${reason}`);
    expect(() => loadConfig({ [name]: value })).toThrow(`(got "${value}")`);
  });

  it('refuses the same port for metrics as for the app', () => {
    expect(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000' })).toThrow('METRICS_PORT: must be another port than PORT on 0.0.0.0 (got "3000" for both)');
    // On two addresses of their own, one port serves both.
    expect(loadConfig({ PORT: '3000', HOST: '192.0.2.10', METRICS_PORT: '3000', METRICS_HOST: '127.0.0.1' })).toMatchObject({ PORT: 3000, METRICS_PORT: 3000 });
  });

  it('names the variable of a port another program holds, not Node’s EADDRINUSE', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as net.AddressInfo;
    try {
      const second = net.createServer();
      const refused = listenOn('METRICS_PORT', port, '127.0.0.1', () => new Promise<void>((resolve, reject) => second.once('error', reject).listen(port, '127.0.0.1', resolve)));
      await expect(refused).rejects.toThrow(new ConfigError(`METRICS_PORT: port ${port} on 127.0.0.1 is in use by another program: stop it, or choose another port`));
    } finally {
      holder.close();
    }
  });

  it.each([
    ['JWT_SECRET', 'MyProductionSecretAlmost32chars', 'must be at least 32 characters', '(got 31 characters, not shown)'],
    ['DATABASE_URL', 'mysql://admin:DbS3cretPw@db.internal/siteboard', 'must start with postgres:// or postgresql://', '(got "mysql://…", the rest not shown)'],
    ['DATABASE_URL', 'notaurl:DbS3cretPw', 'must start with postgres:// or postgresql://', '(got a value that is not an address, not shown)'],
    ['SMTP_URL', 'http://mailuser:S3cretMailPw@mail.example.com', 'must start with smtp:// or smtps://', '(got "http://…", the rest not shown)'],
  ])('names %s=%s in the error without the secret it may hold', (name, value, reason, shown) => {
    const error = captureError(() => loadConfig({ [name]: value }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(`${name}: ${reason} ${shown}`);
    expect(error.message).not.toMatch(/S3cret|Secret/);
  });

  it.each([
    ['DB_POOL_SIZE', '0', 'must be at least 1'],
    ['DB_POOL_SIZE', '2.5', 'must be a whole number'],
    ['DB_POOL_SIZE', '500', 'must be at most 200'],
    ['PORT', '-1', 'must be at least 0'],
    ['SWEEP_INTERVAL_SECONDS', '90000', 'must be at most 86400 (one day)'],
    ['REMINDER_LOCAL_HOUR', '24', 'must be at most 23'],
  ])('says what is wrong with %s=%s, not only that it must be a number', (name, value, reason) => {
    expect(captureError(() => loadConfig({ [name]: value })).message).toBe(`Invalid configuration:\n  ${name}: ${reason} (got "${value}")`);
  });

  it.each(['smtp://mail.example.com:99999', 'smtp://:25', 'smtps://mailuser:S3cretMailPw@mail.example.com:0'])('refuses SMTP_URL %s, which names no mail server it could reach', (value) => {
    const error = captureError(() => loadConfig({ SMTP_URL: value, PUBLIC_URL: 'https://siteboard.example.com' }));

    expect(error.message).toMatch(/^Invalid configuration:\n {2}SMTP_URL: must name the mail server: smtp:\/\/user:password@host:587, with a port from 1 to 65535 \(got "smtps?:\/\/…", the rest not shown\)$/);
    expect(error.message).not.toContain('S3cret');
  });

  it('refuses a WEB_DIST_DIR without a built web app, and takes one with it', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-web-dist-'));
    try {
      expect(captureError(() => loadConfig({ WEB_DIST_DIR: folder, INIT_CWD: '/' })).message).toBe(
        `Invalid configuration:\n  WEB_DIST_DIR: must be the built web app, a folder with index.html (got "${folder}"): run npm run build, or unset it`,
      );
      fs.writeFileSync(path.join(folder, 'index.html'), '<!doctype html>');
      expect(loadConfig({ WEB_DIST_DIR: folder, INIT_CWD: '/' }).webDistDir).toBe(folder);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('names every bad value in one message', () => {
    const bad = { PORT: 'abc', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short', ALLOW_SIGNUP: 'maybe', LOG_LEVEL: 'loud' };

    const error = captureError(() => loadConfig(bad));

    expect(error).toBeInstanceOf(ConfigError);
    for (const name of Object.keys(bad)) expect(error.message).toContain(`${name}:`);
  });
});

function captureError(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

describe('the README', () => {
  it('names every variable the server reads in its configuration table', () => {
    const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../../../README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
    const documented = new Set([...table.matchAll(/^\| ([^|]+) \|/gm)].flatMap(([, cell]) => [...cell!.matchAll(/`([A-Z_]+)`/g)].map(([, name]) => name)));
    expect(CONFIG_VARIABLES.filter((name) => !documented.has(name))).toEqual([]);
  });
});
