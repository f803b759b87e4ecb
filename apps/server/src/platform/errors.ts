import { PASSWORD_CHANGE_REQUIRED, PASSWORD_CHANGE_REQUIRED_CODE } from '@siteboard/shared';

export type FieldErrors = Record<string, string[]>;

/** An error whose message is safe to show to the caller, with the HTTP status it maps to. */
export class AppError extends Error {
  /** A stable name of the refusal, sent beside the translated detail for clients that act on it. */
  code?: string;
  /** Seconds after which trying again may succeed, sent as Retry-After. */
  retryAfterSeconds?: number;

  constructor(
    readonly statusCode: number,
    readonly detail: string,
    readonly errors?: FieldErrors,
  ) {
    super(detail);
  }
}

export class ValidationError extends AppError {
  constructor(detail: string, errors?: FieldErrors) {
    super(400, detail, errors);
  }
}

/** Also what another company's object looks like: it does not exist for the caller. */
export class NotFoundError extends AppError {
  constructor(detail = 'Not found.') {
    super(404, detail);
  }
}

export class UnauthorizedError extends AppError {
  constructor(detail = 'Authentication credentials were not provided or are invalid.') {
    super(401, detail);
  }
}

export class ForbiddenError extends AppError {
  constructor(detail = 'You do not have permission to perform this action.') {
    super(403, detail);
  }
}

/** An admin set the caller's password: nothing but the ways to choose their own is open until they do. */
export class PasswordChangeRequiredError extends ForbiddenError {
  constructor() {
    super(PASSWORD_CHANGE_REQUIRED);
    this.code = PASSWORD_CHANGE_REQUIRED_CODE;
  }
}

export class ConflictError extends AppError {
  constructor(detail: string) {
    super(409, detail);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(override readonly retryAfterSeconds: number) {
    super(429, `Too many failed attempts. Try again in ${retryAfterSeconds} seconds.`);
  }
}

/** The server is too busy for this now; the answer says when to try again (Retry-After). */
export class ServiceUnavailableError extends AppError {
  constructor(
    detail: string,
    override readonly retryAfterSeconds: number,
  ) {
    super(503, detail);
  }
}

/** A single field's validation failure, in the shape the web copies into its form. */
export function fieldError(field: string, message: string): ValidationError {
  return new ValidationError(message, { [field]: [message] });
}
