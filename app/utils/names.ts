/** A person's display name: first name plus last name, or the email when there is no first name. */
export function displayName(person: {
  firstName?: string | null;
  lastName?: string | null;
  email: string;
}): string {
  const first = person.firstName?.trim();
  if (!first) return person.email;
  const last = person.lastName?.trim();
  return last ? `${first} ${last}` : first;
}
