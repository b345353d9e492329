import { useState } from 'react';
import { Button } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useRelabelAnswer } from '../../api/grading';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { paths } from '../../config/paths';

/** An admin sends a PDF copy back to sorting, once asked: it leaves the grading table. */
export function SendBackToSorting({ answerId, chapterId }: { answerId: string; chapterId: string }) {
  const navigate = useNavigate();
  const relabel = useRelabelAnswer(chapterId);
  const [asking, setAsking] = useState(false);
  const sendBack = () =>
    relabel.mutate(answerId, {
      onSuccess: () => {
        setAsking(false);
        navigate(paths.grader(chapterId));
      },
      onError: (error) => console.error(error),
    });
  return (
    <>
      <Button variant="default" c="red.9" onClick={() => setAsking(true)} loading={relabel.isPending}>
        Remettre au triage
      </Button>
      <ConfirmDialog
        opened={asking}
        title="Remettre cette copie au triage ?"
        message="Elle quittera le tableau de correction."
        confirmLabel="Remettre au triage"
        loading={relabel.isPending}
        onCancel={() => setAsking(false)}
        onConfirm={sendBack}
      />
    </>
  );
}
