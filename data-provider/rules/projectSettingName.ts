const namePattern = /^[A-Za-z0-9_.-]{1,100}$/;

/**
 * The problem with a project secret's name, if any: names are what bots look secrets up by
 * (`event.secrets.NAME`), so they are plain identifiers and unique within the project.
 */
export function projectSettingNameProblem(name: string, otherNames: readonly string[]): string | undefined {
  if (!namePattern.test(name)) return 'Name must be 1–100 letters, digits, _ . or -';
  if (otherNames.includes(name)) return `Duplicate name ${name}`;
  return undefined;
}
