/**
 * The platform: the machinery that runs the product (database hosts and pools, the change feed,
 * locks, drain, the identity cache, jobs, periodic sweeps, and the HTTP plugins). Features and
 * scripts import it from here only (the boundary lint holds it); what is not exported here is the
 * platform's own.
 */
export type { AuthUser, ServiceContext } from './context';
export { AppError, ConflictError, ForbiddenError, PasswordChangeRequiredError, NotFoundError, ServiceUnavailableError, TooManyRequestsError, UnauthorizedError, ValidationError, fieldError, type FieldErrors } from './errors';
export { processLogger, safeLogger, serverLogger } from './log';
export { SHUTDOWN_TIMEOUT_MS, trackRequests } from './drain';
export { startSweep, type Sweep, type SweepOptions } from './sweep';
export { createMetrics, serveMetrics, type Metrics, type MetricSample, type ObservedMetric } from './metrics';
export { databaseReadiness, type Readiness } from './database/readiness';
export { entryFile, serverRoot } from './paths';

export { openConfiguredDatabase, openDatabase, migrationsFolder, type Database, type DatabaseOptions, type DatabaseStats } from './database/client';
export { migrationsHash } from './database/embedded-template';
export type { Db, DbOrTx, Tx } from './database/types';
export { afterCommit, CHANGES_CHANNEL, settleChanges, type ChangeFeed } from './database/change-feed';
export { DataDirLockedError } from './database/data-dir-lock';
export { DATABASE_TIMEOUTS, type DatabaseTimeouts } from './database/timeouts';
export { describeUnreachableDatabase } from './database/unreachable';
export { backupEmbedded, restoreEmbedded, serveEmbeddedBackups, snapshotOfRunningServer, type BackupSummary, type RestoreSummary } from './database/embedded-backup';
export { isForeignKeyViolation, isUniqueViolation } from './database/db-errors';
export { builtOncePerDatabase, builtOncePerShape, SESSION_OPTIONS, type IdOrPlaceholder } from './database/statements';
export type { IdentityClaims } from './identity-cache';
export { enqueueMail, enqueueMails, listFailedMails, mailPlugin, MAIL_QUEUE, type FailedMail, type MailSettings, type OutgoingMail } from './mail';
export { enqueueJob, enqueueJobs, jobsPlugin, PermanentJobError, type EnqueueOptions, type Job, type JobDefinition, type JobRunner, type QueueStats } from './jobs';

export { allowedMethodsPlugin } from './http/allowed-methods';
export { authPlugin, foundInCompany, guardedBy, requireRole, type Guard } from './http/auth';
export { conditionalGetPlugin, entityTag, matchesEntityTag } from './http/conditional-get';
export { bodyPlugin, JSON_TOO_DEEP, MAX_JSON_DEPTH } from './http/body';
export { dbPlugin } from './http/db';
export { errorsPlugin, frameworkErrors } from './http/errors';
export { fingerprintKey, idempotencyPlugin, KEY_REUSED, REPLAYED_HEADER, type CrashPoint } from './http/idempotency';
export { abortsWhenConnectionCloses, isMultipartBody, multipartPlugin, MULTIPART_INVALID, type MultipartBody, type UploadedFile, type UploadLimits } from './http/multipart';
export { languagePlugin } from './http/language';
export { metricsPlugin } from './http/metrics';
export { requestIdPlugin, requestIds, REQUEST_ID_HEADER } from './http/request-id';
export { readerLanguage } from './http/reader-language';
export { openapiPlugin } from './http/openapi';
export { securityHeadersPlugin } from './http/security-headers';
export { webPlugin } from './http/web';
export { wsPlugin } from './http/ws';
