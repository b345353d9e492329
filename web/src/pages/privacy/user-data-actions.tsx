import { useState } from 'react';
import { Button, Group } from '@mantine/core';
import { useAnonymiseUser, useUserExport } from '../../api/ops';
import { ConfirmDialog } from '../../components/confirm-dialog';

/** Saves a JSON object as a file in the browser. */
function download(name: string, data: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

/**
 * Admin actions on one person's data (RGPD requests): export everything as JSON, anonymise the
 * account after a confirmation. Meant for the admin view of a user (e.g. /users/{id}).
 */
export function UserDataActions({ uid, name, onAnonymised }: { uid: string; name: string; onAnonymised?: () => void }) {
  const [confirming, setConfirming] = useState(false);
  // On failure the client already showed the server's message: nothing more to do here.
  const exported = useUserExport(uid);
  const anonymised = useAnonymiseUser(uid);
  const busy = exported.isPending || anonymised.isPending;

  function exportData() {
    exported.mutate(undefined, { onSuccess: (data) => download(`olympe-utilisateur-${uid}.json`, data) });
  }

  function anonymise() {
    anonymised.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        onAnonymised?.();
      },
    });
  }

  return (
    <>
      <Group>
        <Button variant="default" onClick={exportData} loading={busy && !confirming}>
          Exporter ses données (JSON)
        </Button>
        <Button color="red" variant="outline" onClick={() => setConfirming(true)} disabled={busy}>
          Anonymiser le compte
        </Button>
      </Group>
      <ConfirmDialog
        opened={confirming}
        title="Anonymiser le compte"
        message={`Le nom, les e-mails, la date de naissance, l’établissement et les copies PDF de ${name} seront effacés définitivement, et le compte ne pourra plus se connecter. Les réponses et les notes restent, sans nom, pour les statistiques.`}
        confirmLabel="Anonymiser"
        danger
        loading={busy}
        onCancel={() => setConfirming(false)}
        onConfirm={anonymise}
      />
    </>
  );
}
