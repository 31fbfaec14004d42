import type { FormModel } from '../../model';

/** About how many fields a group holds (see groupStarts). */
export const GROUP_SIZE = 8;

/**
 * Where the form's fields are cut into groups: the indexes in `form.fields` at which a group starts
 * (0 first). EngineForm draws each group as a flex-wrap box of its own inside the form's Row; off
 * screen, a whole group skips style, layout and paint, and a keystroke re-lays out one group's
 * fields, not the whole form's.
 *
 * The groups lay the fields out exactly as one Row of all of them does, because a cut is made only
 * where that Row starts a new line (on md screens and wider, where half-width fields go two to a
 * line; on narrow screens every field is a line of its own), and the cuts do not depend on the
 * values: a field that a show relation shows or hides makes the line positions after it unknown
 * until a line is certain to start again (a divider or a full-width field). So a relation never
 * moves a field into another group, which would draw it anew.
 *
 * `span` is a drawn field's width on md screens, in 24ths (12 for an inline form's field, 24 for
 * the others and for a rich-text editor).
 */
export function groupStarts(form: FormModel, span: (field: FormModel['fields'][number]) => number, size: number = GROUP_SIZE): number[] {
  const dividers = new Set(form.dividers.map((d) => d.before));
  const toggled = new Set(form.fields.flatMap((f) => f.showRelation?.fields ?? []));
  const starts = [0];
  /** Width taken on the current line; null when it depends on what the show relations hide. */
  let used: number | null = 0;
  let count = 0;
  form.fields.forEach((field, index) => {
    // A show 2 field a relation names is drawn while its trigger holds the value.
    const drawn = field.show !== 4 && (field.show !== 2 || toggled.has(field.name));
    const width = drawn && !toggled.has(field.name) ? Math.min(24, span(field)) : undefined;
    // A divider is a line of its own, and so is a full-width field that is always drawn.
    const lineStart = dividers.has(field.name) || width === 24 || used === 0;
    if (index > 0 && lineStart && count >= size) {
      starts.push(index);
      count = 0;
    }
    if (dividers.has(field.name)) used = 0;
    if (!drawn) return;
    count++;
    if (width === undefined) used = null;
    else if (width === 24) used = 0;
    else if (used !== null) {
      used = used + width > 24 ? width : used + width;
      if (used === 24) used = 0;
    }
  });
  return starts;
}
