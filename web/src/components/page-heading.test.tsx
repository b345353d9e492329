import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PageHeading } from './page-heading';

describe('PageHeading', () => {
  it('titles the tab with the visible words of the h1', () => {
    const chapter = 'Tour 1';
    render(
      <MantineProvider>
        <PageHeading>
          Correction : {chapter} <em>(brouillon)</em>
        </PageHeading>
      </MantineProvider>,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Correction : Tour 1 (brouillon)');
    expect(document.title).toBe('Correction : Tour 1 (brouillon) — Olympe');
  });
});
