import { useState } from 'react';
import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle, IconMailForward } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { safeReturnPath } from '@olympe/contract';
import { register } from '../../api/auth';
import { NETWORK_ERROR_MESSAGE, refusalOf } from '../../api/client';
import { useCountdown } from '../../hooks/use-countdown';
import { PageHeading } from '../../components/page-heading';

/** docs/product.md#spec-9: the send button waits 60 s before a new link can be asked (the server limits too). */
export const RESEND_DELAY_S = 60;

function buttonLabel(remaining: number, sent: boolean): string {
  if (remaining > 0) return `Renvoyer dans ${remaining}s`;
  return sent ? 'Renvoyer' : 'Envoyer';
}

/** The one message of a failed sending: the e-mail field's own French message, else the server's, else the cut. */
function failureMessage(error: unknown): string {
  const refusal = refusalOf(error);
  if (!refusal) return NETWORK_ERROR_MESSAGE;
  return refusal.fields.email ?? refusal.message ?? 'L’envoi a échoué. Réessayez.';
}

/**
 * docs/product.md#spec-2 "Signup": one e-mail field; the confirmation link is sent by mail. Once sent, a message
 * stays on the page (decision 66: a toast alone was gone before it was read) with the address and
 * where to look; `?retour=` travels in the link so the new user lands where they were going.
 */
export function SignupPage() {
  const [params] = useSearchParams();
  const returnTo = safeReturnPath(params.get('retour'));
  // A refusal stays beside the field until the next sending.
  const form = useForm({ initialValues: { email: '' }, clearInputErrorOnChange: false });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { remaining, start, stop } = useCountdown();

  const handleSubmit = form.onSubmit(async ({ email }) => {
    if (remaining > 0) return;
    // The countdown starts at once so a double click cannot send two mails.
    const address = email.trim();
    form.clearErrors();
    setSentTo(null);
    start(RESEND_DELAY_S);
    try {
      await register(address, returnTo);
      setSentTo(address);
    } catch (failure) {
      // Decision 141: a refused address says why beside the field, once; nothing was sent, so no
      // « Courriel envoyé » and no wait before correcting it.
      stop();
      form.setFieldError('email', failureMessage(failure));
    }
  });

  return (
    <Stack maw={480}>
      <PageHeading>Inscription</PageHeading>
      <Text>
        Saisissez votre adresse e-mail : vous recevrez un lien pour choisir votre mot de passe. Si vous avez déjà un compte, ce lien vous
        permet d’en changer le mot de passe.
      </Text>
      <Alert role="note" variant="light" color="blue" icon={<IconInfoCircle aria-hidden />} title="Conseil">
        <Text size="sm" c="dark.9">
          N’utilisez une adresse académique que si vous faites partie du personnel scolaire. Les élèves utilisent leur adresse personnelle.
        </Text>
      </Alert>
      <form onSubmit={handleSubmit}>
        <Stack>
          <TextInput label="E-mail" type="email" autoComplete="email" required {...form.getInputProps('email')} />
          <Button type="submit" disabled={remaining > 0}>
            {buttonLabel(remaining, sentTo !== null)}
          </Button>
        </Stack>
      </form>
      {sentTo !== null && (
        <Alert
          role="note"
          variant="light"
          color="green"
          icon={<IconMailForward aria-hidden />}
          title={
            // Mantine's green title is below AA contrast: the words stay dark (decision 53).
            <Text fw={700} size="sm" c="dark.9">
              Courriel envoyé
            </Text>
          }
        >
          <Stack gap={4}>
            <Text size="sm" c="dark.9" role="status">
              Un courriel a été envoyé à <strong>{sentTo}</strong> ; vérifiez les indésirables. Ouvrez le lien qu’il contient (valable 48
              heures) pour choisir votre mot de passe.
            </Text>
            <Text size="sm" c="dark.9">
              {remaining > 0
                ? `Rien reçu ? Vous pourrez demander un nouvel envoi dans ${remaining} s.`
                : 'Rien reçu ? Vérifiez l’adresse ci-dessus, puis renvoyez.'}
            </Text>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
