import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMounted } from '@mantine/hooks';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { safeReturnPath } from '@olympe/contract/return-path';
import { login } from '../../api/auth';
import { NETWORK_ERROR_MESSAGE, refusalOf } from '../../api/client';
import { paths } from '../../config/paths';
import { useSession } from '../../session/session-context';
import { PageHeading } from '../../components/page-heading';

/**
 * docs/product.md#spec-2 "Login": on success the session is loaded, then the user goes to /profile — or back to the
 * page that asked them to log in (`?retour=`, decision 66).
 */
export function LoginPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const returnTo = safeReturnPath(params.get('retour'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  // Decision 141: the refusal stays in the page beside the form (a toast of a former attempt outlived the login that
  // followed); a new attempt, and a successful one, clear it.
  const [error, setError] = useState<string | null>(null);
  // Decision 117: this screen comes in the page and shows before the app runs. What was typed (or filled by a
  // password manager) before the app took it over is in the fields but not in the state: taken from there once.
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (emailInput.current?.value) setEmail(emailInput.current.value);
    if (passwordInput.current?.value) setPassword(passwordInput.current.value);
  }, []);
  // Until then the button is disabled (decision 118: the app starts after the screen is painted): a click or an
  // Enter would otherwise send the form as a plain page, which reloads it and loses what was typed.
  const takenOver = useMounted();

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
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
  }

  return (
    <Stack maw={420}>
      <PageHeading>Connexion</PageHeading>
      <form onSubmit={handleSubmit}>
        <Stack>
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="email"
            required
            ref={emailInput}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <PasswordInput
            label="Mot de passe"
            autoComplete="current-password"
            required
            ref={passwordInput}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          {error && (
            <Alert color="red" variant="light" role="alert">
              <Text size="sm" c="dark.9">
                {error}
              </Text>
            </Alert>
          )}
          <Button type="submit" loading={pending} disabled={!takenOver}>
            Se connecter
          </Button>
        </Stack>
      </form>
      {/* As the home page's help says: signing up again with the same address mails a new link. */}
      <Text size="sm">
        Mot de passe oublié ?{' '}
        <Anchor component={Link} to={returnTo ? paths.signupFor(returnTo) : paths.signup}>
          Inscrivez-vous à nouveau avec la même adresse
        </Anchor>{' '}
        : un lien pour en choisir un nouveau vous sera envoyé, vos données sont conservées.
      </Text>
    </Stack>
  );
}
