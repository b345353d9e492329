import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMounted } from '@mantine/hooks';
import { Link, useSearchParams } from 'react-router';
import { safeReturnPath } from '@olympe/contract/return-path';
import { paths } from '../../config/paths';
import { useLoginForm } from './use-login-form';
import { PageHeading } from '../../components/page-heading';

/**
 * docs/product.md#spec-2 "Login": on success the session is loaded, then the user goes to /profile — or back to the
 * page that asked them to log in (`?retour=`, decision 66).
 */
export function LoginPage() {
  const [params] = useSearchParams();
  const returnTo = safeReturnPath(params.get('retour'));
  return (
    <Stack maw={420}>
      <PageHeading>Connexion</PageHeading>
      <LoginForm returnTo={returnTo} />
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

function LoginForm({ returnTo }: { returnTo: string | null }) {
  const { form, submit, pending, error, emailInput, passwordInput } = useLoginForm(returnTo);
  // Until then the button is disabled (decision 118: the app starts after the screen is painted): a click or an
  // Enter would otherwise send the form as a plain page, which reloads it and loses what was typed.
  const takenOver = useMounted();
  return (
    <form onSubmit={submit}>
      <Stack>
        <TextInput label="E-mail" type="email" autoComplete="email" required ref={emailInput} {...form.getInputProps('email')} />
        <PasswordInput
          label="Mot de passe"
          autoComplete="current-password"
          required
          ref={passwordInput}
          {...form.getInputProps('password')}
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
  );
}
