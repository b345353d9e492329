import { Group, List, Text, VisuallyHidden } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { PASSWORD_RULES } from '@olympe/contract';

/**
 * The live checklist of docs/product.md#spec-5. Each rule's state is carried by the icon's shape and by text,
 * never by colour alone (WCAG 1.4.1).
 */
export function PasswordChecklist({ password }: { password: string }) {
  return (
    <List listStyleType="none" spacing={4} aria-label="Règles du mot de passe">
      {PASSWORD_RULES.map((rule) => {
        const met = rule.test(password);
        const Icon = met ? IconCircleCheck : IconCircleX;
        return (
          <List.Item key={rule.id} data-rule={rule.id} data-met={met}>
            <Group gap={6} wrap="nowrap">
              <Icon size={18} aria-hidden color={met ? 'var(--mantine-color-green-9)' : 'var(--mantine-color-red-9)'} />
              {/* green.9 on white is 4.4:1, below AA for small text (axe): a met rule's words stay dark, its tick green. */}
              <Text size="sm" c={met ? 'gray.8' : 'red.9'}>
                <VisuallyHidden>{met ? 'Respectée : ' : 'Non respectée : '}</VisuallyHidden>
                {rule.label}
              </Text>
            </Group>
          </List.Item>
        );
      })}
    </List>
  );
}
