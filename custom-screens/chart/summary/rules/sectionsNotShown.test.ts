import { describe, expect, it } from 'vitest';
import { sectionsNotShown } from './sectionsNotShown';

describe('the summary sections left out', () => {
  it('are those whose search was not asked for, in the summary’s order', () => {
    const asked = { items: [] };
    expect(sectionsNotShown({ allergies: asked, problems: asked, medications: asked, observations: asked })).toEqual(
      [],
    );
    expect(
      sectionsNotShown({ allergies: undefined, problems: asked, medications: asked, observations: undefined }),
    ).toEqual(['Allergies', 'Sexual Orientation', 'Smoking Status', 'Vitals']);
  });
});
