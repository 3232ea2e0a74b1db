/** The token of an `Authorization: Bearer <token>` header (scheme in any case), if there is one. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(authorization ?? "")?.[1];
}
