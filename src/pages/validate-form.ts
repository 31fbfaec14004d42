import type { FormInstance } from 'antd';

type NamePath = (string | number)[];

/**
 * Brings a form's field into view, centred when it has to move, and focuses it: in a dialog taller
 * than the screen the field the user must mend is where they look.
 */
export function revealField(form: FormInstance, name: NamePath | string): void {
  form.scrollToField(name, { block: 'center', focus: true });
}

/**
 * The form's values when every rule holds; otherwise null, with the first invalid field (in the
 * form's order) in view and focused. antd's scrollToFirstError acts on form.submit() only, never on
 * the validateFields() a dialog's own 确定 calls, so every such dialog validates through here.
 */
export async function validateOrReveal<V>(form: FormInstance<V>): Promise<V | null> {
  try {
    return await form.validateFields();
  } catch (e) {
    const first = (e as { errorFields?: { name: NamePath }[] }).errorFields?.[0]?.name;
    if (first) revealField(form as FormInstance, first);
    return null;
  }
}
