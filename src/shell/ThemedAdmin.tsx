import type { ComponentProps } from 'react';
import { Admin } from 'react-admin';
import { useMediaQuery } from '@mui/material';
import { effectiveColorScheme, useColorSchemeChoice } from './colorScheme';
import { darkTheme, lightTheme } from './themes';

/** react-admin's Admin painted in the user's colour scheme (light, dark, or the system's with 'auto'). */
export function ThemedAdmin(props: Omit<ComponentProps<typeof Admin>, 'theme' | 'darkTheme' | 'lightTheme'>) {
  const [choice] = useColorSchemeChoice();
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  const mode = effectiveColorScheme(choice, systemDark);
  return <Admin {...props} theme={mode === 'dark' ? darkTheme : lightTheme} />;
}
