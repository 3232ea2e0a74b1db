/**
 * A body that is not an ExportMetricsServiceRequest in the encoding it claims: nothing of it is
 * accepted (400). Data points that are merely invalid are rejected one by one instead.
 */
export class OtlpBodyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OtlpBodyError";
  }
}
