import { useEffect, useRef, useState } from 'react';
import { useForm } from '@mantine/form';
import { useNavigate } from 'react-router';
import { login } from '../../api/auth';
import { NETWORK_ERROR_MESSAGE, refusalOf } from '../../api/client';
import { paths } from '../../config/paths';
import { useSession } from '../../session/session-context';

/**
 * The login form's values, the refusal said beside it and its submission: on success the session is loaded, then the
 * user goes to /profile or to `returnTo`. The login body has no schema in the contract and this screen carries no zod
 * (decision 117): the fields' own `required` is the check, the server's refusal the rest.
 */
export function useLoginForm(returnTo: string | null) {
  const session = useSession();
  const navigate = useNavigate();
  const form = useForm({ initialValues: { email: '', password: '' } });
  const [pending, setPending] = useState(false);
  // Decision 141: the refusal stays in the page beside the form (a toast of a former attempt outlived the login that
  // followed); a new attempt, and a successful one, clear it.
  const [error, setError] = useState<string | null>(null);
  // Decision 117: this screen comes in the page and shows before the app runs. What was typed (or filled by a
  // password manager) before the app took it over is in the fields but not in the state: taken from there once.
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (emailInput.current?.value) form.setFieldValue('email', emailInput.current.value);
    if (passwordInput.current?.value) form.setFieldValue('password', passwordInput.current.value);
    // Once, at the take-over.
  }, []);

  const submit = form.onSubmit(async ({ email, password }) => {
    setPending(true);
    setError(null);
    try {
      const { token, refreshToken } = await login({ email, password });
      await session.login(token, refreshToken);
      await navigate(returnTo ?? paths.profile);
    } catch (failure) {
      // docs/product.md#spec-8: « Erreur : {message} » with the server's message, else the network's.
      console.error(failure);
      const refusal = refusalOf(failure);
      setError(refusal ? `Erreur\u00a0: ${refusal.message ?? 'la connexion a échoué.'}` : NETWORK_ERROR_MESSAGE);
      setPending(false);
    }
  });

  return { form, submit, pending, error, emailInput, passwordInput };
}
