import { useState, type FormEvent } from 'react';
import { Button, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { login } from '../../api/auth';
import { paths } from '../../config/paths';
import { useSession } from '../../session/session-context';

/** SPEC §2 "Login": on success the session is loaded, then the user goes to /profile. */
export function LoginPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    try {
      const token = await login({ email, password });
      await session.login(token);
      await navigate(paths.profile);
    } catch (error) {
      // SPEC §8: a failed login is only logged; the client already showed the server's message.
      console.error(error);
      setPending(false);
    }
  }

  return (
    <Stack maw={420}>
      <Title order={1}>Connexion</Title>
      <form onSubmit={handleSubmit}>
        <Stack>
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <PasswordInput
            label="Mot de passe"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Button type="submit" loading={pending}>
            Se connecter
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
