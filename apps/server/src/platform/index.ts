/**
 * The platform: the machinery that runs the product (database hosts and pools, the change feed,
 * locks, drain, the identity cache, jobs, and the HTTP plugins). Features and scripts import it
 * from here only (the boundary lint holds it); what is not exported here is the platform's own.
 */
export type { AuthUser, ServiceContext } from './context';
export { AppError, ConflictError, ForbiddenError, NotFoundError, ServiceUnavailableError, TooManyRequestsError, UnauthorizedError, ValidationError, fieldError, type FieldErrors } from './errors';
export { safeLogger } from './log';
export { trackRequests } from './drain';
export { serverRoot } from './paths';

export { openConfiguredDatabase, openDatabase, migrationsFolder, type Database, type DatabaseOptions } from './database/client';
export { migrationsHash } from './database/embedded-template';
export type { Db, DbOrTx, Tx } from './database/types';
export { CHANGES_CHANNEL, settleChanges, type ChangeFeed } from './database/change-feed';
export { DataDirLockedError } from './database/data-dir-lock';
export { isUniqueViolation } from './database/db-errors';
export { builtOncePerDatabase, builtOncePerShape, SESSION_OPTIONS, type IdOrPlaceholder } from './database/statements';
export type { IdentityClaims } from './identity-cache';

export { authPlugin, requireRole } from './http/auth';
export { bodyPlugin, JSON_TOO_DEEP, MAX_JSON_DEPTH } from './http/body';
export { dbPlugin } from './http/db';
export { errorsPlugin } from './http/errors';
export { idempotencyPlugin } from './http/idempotency';
export { abortsWhenConnectionCloses, isMultipartBody, multipartPlugin, MULTIPART_INVALID, type MultipartBody, type UploadedFile, type UploadLimits } from './http/multipart';
export { languagePlugin } from './http/language';
export { readerLanguage } from './http/reader-language';
export { openapiPlugin } from './http/openapi';
export { securityHeadersPlugin } from './http/security-headers';
export { webPlugin } from './http/web';
export { wsPlugin } from './http/ws';
