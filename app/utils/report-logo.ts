/**
 * The address of a user's report logo at a version (the time the settings were saved): a new
 * logo has a new address, so a cached old one is never shown in its place.
 */
export function reportLogoSrc(version: number): string {
  return `/report-logo?v=${version}`;
}
