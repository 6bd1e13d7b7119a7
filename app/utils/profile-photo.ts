/**
 * The address of a user's profile photo at a version (the time it was saved): a new photo has a
 * new address, so a cached old one is never shown in its place.
 */
export function profilePhotoSrc(version: number): string {
  return `/profile-photo?v=${version}`;
}
