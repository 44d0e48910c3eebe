/** What the placeholders of a name are filled with. */
export interface PlaceholderValues {
  /** The moment of creation; `{{date}}` and `{{time}}` show it in UTC. */
  now: Date;
  /** The asset id the new entity gets (the group's next one); `{{counter}}` shows it. */
  counter: bigint;
}

/** The placeholders a template's default name (or a requested name) may hold. */
export const NAME_PLACEHOLDERS_DESCRIPTION =
  'Placeholders are filled when the entity is created: `{{date}}` → the UTC date as ' +
  'YYYY-MM-DD, `{{time}}` → the UTC time as HH:MM, `{{counter}}` → the asset id the new ' +
  'entity gets (the group’s next asset id, as a plain number such as 42). Names are not case ' +
  'sensitive and may have spaces inside the braces (`{{ Date }}`); anything else in braces is ' +
  'kept as it is.';

const PLACEHOLDER = /\{\{\s*(date|time|counter)\s*\}\}/gi;

const two = (value: number): string => String(value).padStart(2, '0');

/** `text` with every known placeholder replaced; unknown ones stay as they are. */
export function fillPlaceholders(text: string, values: PlaceholderValues): string {
  const { now, counter } = values;
  return text.replace(PLACEHOLDER, (_whole, name: string) => {
    switch (name.toLowerCase()) {
      case 'date':
        return now.toISOString().slice(0, 10);
      case 'time':
        return `${two(now.getUTCHours())}:${two(now.getUTCMinutes())}`;
      default:
        return String(counter);
    }
  });
}
