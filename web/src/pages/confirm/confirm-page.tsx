import { useState, type FormEvent } from 'react';
import { Alert, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { isPasswordValid, PASSWORD_RULES_MESSAGE } from '@olympe/contract';
import { confirm } from '../../api/auth';
import { paths } from '../../config/paths';
import { PasswordChecklist } from './password-checklist';
import { PageHeading } from '../../components/page-heading';

/** SPEC §2 "Confirm": the password is chosen from the e-mailed link (?token=...). */
export function ConfirmPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // SPEC §5: on a rule failure the message appears and no call is made.
    if (!isPasswordValid(password)) {
      setError(PASSWORD_RULES_MESSAGE);
      return;
    }
    setError(null);
    setPending(true);
    try {
      await confirm({ token, password });
      await navigate(paths.login);
    } catch {
      // SPEC §8: confirm swallows errors; the client's notification already told the user.
      setPending(false);
    }
  }

  return (
    <Stack maw={480}>
      <PageHeading>Choix du mot de passe</PageHeading>
      {!token && (
        <Text>Ce lien est incomplet : ouvrez le lien reçu par e-mail, ou inscrivez-vous à nouveau.</Text>
      )}
      <form onSubmit={handleSubmit} noValidate>
        <Stack>
          <PasswordInput
            label="Mot de passe"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
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
    </Stack>
  );
}
