// Where a file dialog starts (issue 15): never in the process's working directory, which for a
// workstation started from a desktop or a script is nowhere the operator chose. In order:
//   1. the folder of what the field being filled in names now, when it exists (a stream's recording);
//   2. the last folder chosen for the same purpose (remembered in QSettings, "fileDialogs/<purpose>");
//   3. the profiles folder: the last folder a station profile was opened from or saved to;
//   4. the home folder.
// A folder that has gone since is skipped. Each purpose is remembered on its own: exporting a CSV
// does not move where profiles are opened from. The static helpers run the usual QFileDialog
// functions from that folder and remember what the operator chose.
#pragma once

#include <QString>

class QWidget;

namespace telestation::ui {

class FileDialogFolder {
public:
    // Purposes used by the workstation (any short key works).
    static inline const QString kProfiles = QStringLiteral("profiles");
    static inline const QString kDisplays = QStringLiteral("displays");
    static inline const QString kDefinitions = QStringLiteral("definitions");
    static inline const QString kEventExports = QStringLiteral("eventExports");
    static inline const QString kRecordings = QStringLiteral("recordings");
    static inline const QString kRecordingExports = QStringLiteral("recordingExports");

    explicit FileDialogFolder(QString purpose);

    // The folder to start in (absolute; see the header). `current`: a file or folder the field names
    // now ("" = none); relative paths are not used (they would be relative to the working directory).
    [[nodiscard]] QString folder(const QString& current = {}) const;
    // A save dialog's suggestion: `fileName` in folder(); an absolute path in an existing folder (the
    // profile's own file for Save As) stays as it is.
    [[nodiscard]] QString suggestion(const QString& fileName) const;
    // The operator chose `path` (a file: its folder is kept; a folder: itself). "" is ignored.
    void remember(const QString& path) const;

    // QFileDialog::getOpenFileName / getSaveFileName / getExistingDirectory from folder(), remembering
    // the choice; "" when cancelled.
    static QString openFile(QWidget* parent, const QString& purpose, const QString& caption, const QString& filter,
                            const QString& current = {});
    static QString saveFile(QWidget* parent, const QString& purpose, const QString& caption, const QString& fileName,
                            const QString& filter);
    static QString existingFolder(QWidget* parent, const QString& purpose, const QString& caption,
                                  const QString& current = {});

private:
    [[nodiscard]] static QString remembered(const QString& purpose);

    QString m_purpose;
};

} // namespace telestation::ui
