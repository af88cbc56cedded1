import type { ComponentProps, ReactNode } from 'react';

type FieldProps = { id: string; label: ReactNode; hint?: ReactNode; hintId?: string; className?: string; children: ReactNode };

/**
 * A control under its label (`.field`). The label names the control through its id: that is what
 * screen readers announce and what the tests find it by. A hint given an id is for the control's
 * aria-describedby.
 */
export function Field({ id, label, hint, hintId, className, children }: FieldProps) {
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <p id={hintId} className="muted settings-hint">
          {hint}
        </p>
      )}
    </div>
  );
}

type InputFieldProps = ComponentProps<'input'> & { id: string; label: ReactNode; fieldClass?: string; onValue?: (value: string) => void };

/** A Field around an <input>: every prop but the label, the field's class and onValue (its text as typed) is the input's. */
export function InputField({ label, fieldClass, onValue, ...input }: InputFieldProps) {
  return (
    <Field id={input.id} label={label} className={fieldClass}>
      <input onChange={onValue && ((e) => onValue(e.target.value))} {...input} />
    </Field>
  );
}

/** A checkbox (a switch with role="switch") in a row with its label, and a hint under it that it is described by. */
export function CheckboxRow({ label, hint, hintId, ...input }: ComponentProps<'input'> & { label: ReactNode; hint?: ReactNode; hintId?: string }) {
  return (
    <>
      <label className="checkbox-row">
        <input type="checkbox" aria-describedby={hint ? hintId : undefined} {...input} />
        {label}
      </label>
      {hint && (
        <p id={hintId} className="muted">
          {hint}
        </p>
      )}
    </>
  );
}

/** <option>s for languages, each named in itself (and marked as in it, for screen readers). */
export function LanguageOptions({ languages }: { languages: readonly (readonly [code: string, name: string, ...rest: unknown[]])[] }) {
  return languages.map(([code, name]) => (
    <option key={code} value={code} lang={code}>
      {name}
    </option>
  ));
}

/** What failed, said at once (role="alert"): a sentence, or a form's problems one under the other; nothing while nothing has. */
export function ErrorAlert({ error }: { error: string | readonly string[] | null }) {
  if (!error || error.length === 0) return null;
  return (
    <div className="alert alert-destructive" role="alert">
      {typeof error === 'string' ? error : error.map((line, i) => <p key={i}>{line}</p>)}
    </div>
  );
}
