import type { Dosage, Timing } from '@medplum/fhirtypes';
import { formatCodeableConcept, formatQuantity, formatRange } from '../../data-provider/formatting';

const UNIT_NAMES: Record<string, [string, string]> = {
  s: ['second', 'seconds'],
  min: ['minute', 'minutes'],
  h: ['hour', 'hours'],
  d: ['day', 'days'],
  wk: ['week', 'weeks'],
  mo: ['month', 'months'],
  a: ['year', 'years'],
};

const TIMES = ['', 'once', 'twice'];

/** "once a day", "twice a day", "3 times a day", "every 6 hours", "every 60 days". */
function howOften(timing: Timing | undefined): string {
  const repeat = timing?.repeat;
  const unit = repeat?.periodUnit ? UNIT_NAMES[repeat.periodUnit] : undefined;
  if (!repeat || !unit || !repeat.period) return formatCodeableConcept(timing?.code);
  const frequency = repeat.frequency ?? 1;
  const times = TIMES[frequency] ?? `${frequency} times`;
  if (repeat.period === 1) return `${times} a ${unit[0]}`;
  return `${frequency === 1 ? 'every' : `${times} every`} ${repeat.period} ${unit[1]}`;
}

/** The amount of one dose: "500 mg"; a bare count (Synthea's "1", a tablet) as "1 dose". */
function doseOf(dosage: Dosage): string {
  const rate = dosage.doseAndRate?.[0];
  if (rate?.doseRange) return formatRange(rate.doseRange);
  const quantity = rate?.doseQuantity;
  if (!quantity || typeof quantity.value !== 'number') return '';
  const text = formatQuantity(quantity);
  if (quantity.unit || quantity.code) return text;
  return `${text} ${quantity.value === 1 ? 'dose' : 'doses'}`;
}

function asNeeded(dosage: Dosage): string {
  const reason = formatCodeableConcept(dosage.asNeededCodeableConcept);
  if (reason) return `as needed for ${reason}`;
  return dosage.asNeededBoolean ? 'as needed' : '';
}

/**
 * A prescription's dosage as a clinician reads it: the prescriber's own text, else one put together
 * from its structured parts — "1 dose, twice a day", "As needed". Imported orders (Synthea's among
 * them) carry only the structure, and the Dosage column stood empty.
 */
export function dosageText(dosages: readonly Dosage[] | undefined): string {
  const written = dosages?.find((dosage) => dosage.text?.trim())?.text?.trim();
  if (written) return written;
  return (dosages ?? [])
    .map((dosage) => {
      const text = [doseOf(dosage), howOften(dosage.timing), asNeeded(dosage)].filter(Boolean).join(', ');
      return text.charAt(0).toUpperCase() + text.slice(1);
    })
    .filter(Boolean)
    .join('; ');
}
