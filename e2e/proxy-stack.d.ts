import type { DatabaseHop } from '../apps/server/src/test/database-hop';
export declare const repoRoot: string;
export declare const JWT_SECRET = "proxy-stack-secret-that-is-long-enough-for-hs256";
export interface StackPorts {
    nginx: number;
    instances: [number, number];
    metrics: [number, number];
}
/** Five ports from `base` (this developer's range by default): nginx, the two instances, their metrics. */
export declare function stackPorts(base: number): StackPorts;
/** A new PostgreSQL database for the stack, dropped by `drop`. */
export declare function createDatabase(): {
    url: string;
    drop(): void;
};
/** One compiled instance (`node apps/server/dist/server.js`, as npm start runs it), startable again after a stop. */
export declare class Instance {
    readonly port: number;
    readonly metricsPort: number;
    private readonly env;
    private child;
    private lines;
    private exited;
    constructor(port: number, metricsPort: number, env: Record<string, string>);
    get origin(): string;
    /** Starts the process and resolves once GET /api/ready/ answers 200 on its own port. */
    start(): Promise<void>;
    /** SIGTERM, as systemd stops it: resolves with how it exited. */
    stop(): Promise<{
        code: number | null;
        signal: NodeJS.Signals | null;
    }>;
    kill(): void;
    /** Another instance on the same ports with `extra` in its environment, to start once this one has stopped. */
    withEnv(extra: Record<string, string>): Instance;
    /** Whether the process has ended (by itself or stopped). */
    get ended(): boolean;
    /** How the process ended, once it has. */
    exit(): Promise<{
        code: number | null;
        signal: NodeJS.Signals | null;
    }>;
    /** What the instance logged (JSON lines), parsed. */
    log(): Record<string, unknown>[];
    metricsText(): Promise<string>;
}
/**
 * deploy/nginx.conf for a test: its listen port and upstream ports swapped for `ports`, its pid,
 * logs, temporary files and cache moved into `dir`, and the current user's. Each swap must find
 * what it replaces, so a change to the committed file that the test no longer covers fails here.
 */
export declare function nginxConfigFor(ports: StackPorts, dir: string, committed?: string): string;
export interface Proxy {
    url: string;
    /** nginx's access log so far, one line per request. */
    accessLog(): string[];
    stop(): Promise<void>;
}
/** Debian's nginx with `config`, in the foreground, as the current user; resolves once it answers. */
export declare function startNginx(config: string, dir: string, port: number): Promise<Proxy>;
/** One line of the access log: which instances nginx asked (a retry names two), what they and nginx answered. */
export declare function parseAccessLine(line: string): {
    status: number;
    upstreams: string[];
    upstreamStatuses: string[];
    requestId: string;
};
export interface Traffic {
    sent(): number;
    failures(): string[];
    stop(): Promise<void>;
}
/**
 * Steady traffic through `url`, as signed-in people make it: `loops` clients each alternating a
 * list read and a write (a new project), one after the other with a short pause. A request fails
 * when it errs or answers anything but 200/201.
 */
export declare function steadyTraffic(url: string, token: string, managerId: number, loops?: number): Traffic;
/**
 * A rolling restart: each instance in turn gets SIGTERM, exits, starts again, and is waited for
 * until nginx sends it traffic again (its access log names it with a 2xx), before the next one
 * goes. Answers how each instance exited.
 */
export declare function rollingRestart(proxy: Proxy, instances: Instance[]): Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
}[]>;
/** The demo company's people signed in through `url`: an admin's token and a manager's id. */
export declare function signInAdmin(url: string, from?: {
    companyName: string;
    companyPassword: string;
    email: string;
    password: string;
}): Promise<{
    token: string;
    managerId: number;
}>;
/** Seeds the demo company into the database (`npm run seed:demo`), migrating it first. */
export declare function seedDemo(databaseUrl: string): void;
/**
 * The whole stack: a new database with the demo company, two instances (TRUST_PROXY=1, as behind
 * nginx), nginx in front. `stop` ends everything and drops the database.
 */
export declare function startProxyStack(ports: StackPorts, options?: {
    nginxConfig?: (config: string) => string;
}): Promise<{
    proxy: Proxy;
    instances: Instance[];
    databaseUrl: string;
    database: DatabaseHop;
    stop: () => Promise<void>;
}>;
