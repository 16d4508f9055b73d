/**
 * The drug classes the Add medication check knows (custom-screens/chart/summary/rules/medicationChecks.ts):
 * a small table of the commonest cross-reactive antibiotic classes, so that an allergy to one
 * member warns about the others.
 *
 * LIMITS — this is a simple name and class check, NOT a drug-interaction or allergy database:
 * - It compares words of names (the order's text and its codings' displays, the allergy's text and
 *   displays). A coded medication without a display, a misspelt name, a combination or brand name
 *   not listed here is not recognised; RxNorm and SNOMED codes are not resolved to ingredients.
 * - Only the classes below are known. Other cross-reactions (carbapenems and penicillins,
 *   non-antibiotic sulfonamides such as furosemide or thiazides, NSAIDs, opioids, contrast media…)
 *   are not checked, nor drug–drug interactions, doses, kidney function or pregnancy.
 * - A penicillin allergy with a cephalosporin order says "possible cross-reactivity": the real risk
 *   is low (about 1–2 %, higher for first-generation cephalosporins with similar side chains) and
 *   the prescriber decides.
 * The clinician always sees what matched and may add the order anyway.
 */

export interface DrugClass {
  id: string;
  /** The class in a sentence: "amoxicillin is a penicillin". */
  memberOf: string;
  /** Plural, for an allergy named by its class: "an allergy to penicillins". */
  plural: string;
  /** Lower-case words that name the class itself in an allergy ("Allergy to penicillin", "Sulfa allergy"). */
  classWords: readonly string[];
  /** Lower-case ingredient (and a few common brand) names of the class's members, one word each. */
  members: readonly string[];
}

export const PENICILLINS: DrugClass = {
  id: 'penicillins',
  memberOf: 'a penicillin',
  plural: 'penicillins',
  classWords: ['penicillin', 'penicillins'],
  members: [
    'penicillin',
    'benzylpenicillin',
    'phenoxymethylpenicillin',
    'amoxicillin',
    'amoxycillin',
    'ampicillin',
    'bacampicillin',
    'piperacillin',
    'ticarcillin',
    'carbenicillin',
    'mezlocillin',
    'nafcillin',
    'oxacillin',
    'cloxacillin',
    'dicloxacillin',
    'flucloxacillin',
    'temocillin',
    'pivmecillinam',
    // Brands and combination names that carry no ingredient word.
    'amoxiclav',
    'augmentin',
    'amoxil',
    'unasyn',
    'zosyn',
    'tazocin',
    'timentin',
  ],
};

export const CEPHALOSPORINS: DrugClass = {
  id: 'cephalosporins',
  memberOf: 'a cephalosporin',
  plural: 'cephalosporins',
  classWords: ['cephalosporin', 'cephalosporins'],
  members: [
    'cefalexin',
    'cephalexin',
    'cefadroxil',
    'cefazolin',
    'cephazolin',
    'cefaclor',
    'cefuroxime',
    'cefprozil',
    'cefoxitin',
    'cefotetan',
    'cefdinir',
    'cefixime',
    'cefpodoxime',
    'cefditoren',
    'ceftibuten',
    'cefotaxime',
    'ceftriaxone',
    'ceftazidime',
    'cefepime',
    'ceftaroline',
    'ceftolozane',
    'cefiderocol',
    'keflex',
    'rocephin',
  ],
};

export const SULFONAMIDE_ANTIBIOTICS: DrugClass = {
  id: 'sulfonamide-antibiotics',
  memberOf: 'a sulfonamide antibiotic',
  plural: 'sulfonamide antibiotics',
  classWords: ['sulfa', 'sulpha', 'sulfonamide', 'sulfonamides', 'sulphonamide', 'sulphonamides'],
  members: [
    'sulfamethoxazole',
    'sulphamethoxazole',
    'sulfadiazine',
    'sulfisoxazole',
    'sulfacetamide',
    'cotrimoxazole',
    'bactrim',
    'septra',
  ],
};

export const DRUG_CLASSES: readonly DrugClass[] = [PENICILLINS, CEPHALOSPORINS, SULFONAMIDE_ANTIBIOTICS];

/**
 * An allergy to the first class makes the second a possible, not a certain, risk: the check says
 * "possible cross-reactivity" rather than "is a".
 */
export const POSSIBLE_CROSS_REACTIVITY: readonly { allergyClass: string; drugClass: string }[] = [
  { allergyClass: PENICILLINS.id, drugClass: CEPHALOSPORINS.id },
  { allergyClass: CEPHALOSPORINS.id, drugClass: PENICILLINS.id },
];

/**
 * Words of an allergy's name that say what kind of record it is, not what the patient reacts to
 * ("Allergy to penicillin"): never compared with a medication's name.
 */
export const ALLERGY_NAME_NOISE: readonly string[] = [
  'allergy',
  'allergies',
  'allergic',
  'intolerance',
  'hypersensitivity',
  'sensitivity',
  'reaction',
  'adverse',
  'drug',
  'drugs',
  'medication',
  'medicine',
  'product',
  'containing',
  'with',
  'from',
  'history',
  'disorder',
  'finding',
  'substance',
];

/** Words shorter than this are never compared (to, of, mg, iv). */
export const SHORTEST_COMPARED_WORD = 4;
