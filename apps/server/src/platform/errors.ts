export type FieldErrors = Record<string, string[]>;

/** An error whose message is safe to show to the caller, with the HTTP status it maps to. */
export class AppError extends Error {
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

export class ConflictError extends AppError {
  constructor(detail: string) {
    super(409, detail);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, `Too many failed attempts. Try again in ${retryAfterSeconds} seconds.`);
  }
}

/** The server is too busy for this now; the answer says when to try again (Retry-After). */
export class ServiceUnavailableError extends AppError {
  constructor(
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(503, detail);
  }
}

/** A single field's validation failure, in the shape the web copies into its form. */
export function fieldError(field: string, message: string): ValidationError {
  return new ValidationError(message, { [field]: [message] });
}
