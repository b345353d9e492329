import { useState } from 'react';
import { Alert, Anchor, Button, Center, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isPasswordValid, PASSWORD_RULES_MESSAGE, safeReturnPath } from '@olympe/contract';
import { confirm, useLinkCheck } from '../../api/auth';
import { paths } from '../../config/paths';
import { useSession } from '../../session/session-context';
import { PasswordChecklist } from './password-checklist';
import { PageHeading } from '../../components/page-heading';
import { refusalOf } from '../../api/client';

const LINK_PROBLEM = 'Ce lien ne permet pas de choisir un mot de passe.';

/** The server's French reason for a refused link, or a generic one (network). */
function reasonOf(error: unknown): string {
  return refusalOf(error)?.message ?? 'Le lien n’a pas pu être vérifié : vérifiez votre connexion, puis rechargez la page.';
}

/**
 * docs/product.md#spec-2 "Confirm", as decision 66 changed it: the link is checked as soon as the page opens (without
 * being used), a bad or used link says so at once with a way to get a new one, and after choosing
 * a password the user is logged in and taken where they were going (`?retour=`, else the profile).
 */
export function ConfirmPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const returnTo = safeReturnPath(params.get('retour')) ?? paths.profile;
  const link = useLinkCheck(token);

  return (
    <Stack maw={480}>
      <PageHeading>Choix du mot de passe</PageHeading>
      {!token ? (
        <LinkProblem
          reason="Ce lien est incomplet : ouvrez le lien reçu par e-mail en entier, ou demandez-en un nouveau."
          returnTo={returnTo}
        />
      ) : link.isPending ? (
        <Center py="md">
          <Loader role="status" aria-label="Vérification du lien" />
        </Center>
      ) : link.isError ? (
        <LinkProblem reason={reasonOf(link.error)} returnTo={returnTo} />
      ) : (
        <PasswordForm token={token} email={link.data.email} returnTo={returnTo} />
      )}
    </Stack>
  );
}

function LinkProblem({ reason, returnTo }: { reason: string; returnTo: string }) {
  return (
    <Alert color="red" variant="light" title={LINK_PROBLEM}>
      <Stack gap="xs">
        <Text size="sm" c="red.9">
          {reason}
        </Text>
        <Text size="sm">
          <Anchor component={Link} to={paths.signupFor(returnTo)}>
            Recevoir un nouveau lien
          </Anchor>{' '}
          (saisissez la même adresse : vos données sont conservées) ou{' '}
          <Anchor component={Link} to={paths.loginFor(returnTo)}>
            se connecter
          </Anchor>{' '}
          si vous avez déjà choisi votre mot de passe.
        </Text>
      </Stack>
    </Alert>
  );
}

function PasswordForm({ token, email, returnTo }: { token: string; email: string; returnTo: string }) {
  const navigate = useNavigate();
  const session = useSession();
  // docs/product.md#spec-5: on a rule failure the message appears and no call is made (the contract's rules).
  const form = useForm({
    initialValues: { password: '' },
    clearInputErrorOnChange: false,
    validate: { password: (value) => (isPasswordValid(value) ? null : PASSWORD_RULES_MESSAGE) },
  });
  const [pending, setPending] = useState(false);
  const password = form.values.password;
  const error = form.errors.password;

  const handleSubmit = form.onSubmit(async () => {
    setPending(true);
    try {
      const { token: sessionToken, refreshToken } = await confirm({ token, password });
      await session.login(sessionToken, refreshToken);
      await navigate(returnTo);
    } catch {
      // docs/product.md#spec-8: confirm swallows errors; the client's notification already told the user.
      setPending(false);
    }
  });

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack>
        {/* The account the link belongs to: a password manager files the password under it. */}
        <TextInput label="Adresse e-mail" value={email} readOnly autoComplete="username" />
        <PasswordInput
          label="Mot de passe"
          autoComplete="new-password"
          required
          // The refusal is said once, under the checklist.
          {...form.getInputProps('password', { withError: false })}
        />
        <PasswordChecklist password={password} />
        {error && (
          <Alert color="red" variant="light" role="alert">
            <Text size="sm" c="red.9">
              {error}
            </Text>
          </Alert>
        )}
        <Button type="submit" loading={pending}>
          Continuer
        </Button>
      </Stack>
    </form>
  );
}
