/** The five password rules of docs/product.md#spec-5, shared by the confirm page's live checklist and the server. */
export const PASSWORD_SPECIALS = '!@#$%^&*(),.?":{}|<=>';

export interface PasswordRule {
  id: 'length' | 'lower' | 'upper' | 'digit' | 'special';
  label: string;
  test: (password: string) => boolean;
}

export const PASSWORD_RULES: readonly PasswordRule[] = [
  { id: 'length', label: 'Au moins 8 caractères', test: (p) => [...p].length >= 8 },
  { id: 'lower', label: 'Une lettre minuscule', test: (p) => /[a-z]/.test(p) },
  { id: 'upper', label: 'Une lettre majuscule', test: (p) => /[A-Z]/.test(p) },
  { id: 'digit', label: 'Un chiffre', test: (p) => /[0-9]/.test(p) },
  {
    id: 'special',
    label: `Un caractère spécial parmi ${PASSWORD_SPECIALS}`,
    test: (p) => [...p].some((c) => PASSWORD_SPECIALS.includes(c)),
  },
];

export const PASSWORD_RULES_MESSAGE = 'Le mot de passe ne respecte pas toutes les contraintes.';

export function checkPassword(password: string): Record<PasswordRule['id'], boolean> {
  return Object.fromEntries(PASSWORD_RULES.map((r) => [r.id, r.test(password)])) as Record<PasswordRule['id'], boolean>;
}

export function isPasswordValid(password: string): boolean {
  return PASSWORD_RULES.every((r) => r.test(password));
}
