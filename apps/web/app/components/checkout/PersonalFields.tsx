import type { ReactNode } from 'react';
import type { FieldErrors } from '../../lib/checkout-validation.ts';
import type { PersonalDetails } from '../../state/checkout-store.ts';
import { useCheckout } from '../../state/use-cart.ts';
import { Field, sectionClass, sectionTitleClass } from './Field.tsx';

export type PersonalErrors = FieldErrors<'firstName' | 'lastName' | 'emailAddress' | 'phone'>;

/** Spec §3 Personal details: first name, last name, e-mail, phone (with autocomplete, WCAG 1.3.5). */
export function PersonalFields({ errors, onEdit, children }: { errors: PersonalErrors; onEdit(field: keyof PersonalDetails): void; children?: ReactNode }) {
  const personal = useCheckout((s) => s.personal);
  const setPersonal = useCheckout((s) => s.setPersonal);
  const change = (field: keyof PersonalDetails) => (value: string) => {
    setPersonal({ [field]: value });
    onEdit(field);
  };
  return (
    <section aria-labelledby="personal-title" className={sectionClass}>
      <h2 id="personal-title" className={sectionTitleClass}>
        1. Your details
      </h2>
      <p className="mt-1 text-sm text-stone-600">Bring a photo ID that matches this name: we check it at pickup or delivery.</p>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <Field id="firstName" label="First name" required autoComplete="given-name" value={personal.firstName} onChange={change('firstName')} error={errors.firstName} />
        <Field id="lastName" label="Last name" required autoComplete="family-name" value={personal.lastName} onChange={change('lastName')} error={errors.lastName} />
        <Field id="emailAddress" label="E-mail" required type="email" autoComplete="email" value={personal.emailAddress} onChange={change('emailAddress')} error={errors.emailAddress} />
        <Field id="phone" label="Phone" required type="tel" autoComplete="tel" value={personal.phone} onChange={change('phone')} error={errors.phone} />
        {/* More fields of the shopper (the date of birth, issue 14). */}
        {children}
      </div>
    </section>
  );
}
