/** Why redaction could not complete. The HTTP layer maps every one of these to 503 + a failed_closed receipt. */
export type RedactionFailureReason = 'recognizer_error' | 'time_budget_exceeded' | 'invalid_input' | 'configuration';

/**
 * Thrown whenever the engine cannot guarantee a complete redaction. Callers must never fall back to the input text.
 * The message never contains input text (it may be logged).
 */
export class RedactionFailedError extends Error {
  readonly reason: RedactionFailureReason;
  /** Recognizer that failed, when known. */
  readonly recognizer?: string;

  constructor(reason: RedactionFailureReason, message: string, options?: { recognizer?: string; cause?: unknown }) {
    super(message);
    this.name = 'RedactionFailedError';
    this.reason = reason;
    this.recognizer = options?.recognizer;
    if (options?.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }
}

export function isRedactionFailedError(e: unknown): e is RedactionFailedError {
  return e instanceof RedactionFailedError;
}
